#!/usr/bin/env bash
# Field case qwen_image_edit2511_lora_r16_512_swap16_3090_shibei1 (batch 2026-12-07f), in musubi-tuner's own form.
# Source: github.com/SHIBEI1/qwen_lora_enhance_final - scripts/train_lora.sh and configs/rtx3090_24gb.env at c70c58f7
# (release v1.0.0), experiments/rank8_alpha16/protocol.json at 50893a71 (metadata of the released rank-16 run).
# The project's own launcher, with the variables of its "Final training profile: RTX 3090 (24GB VRAM)" written in:
# Qwen-Image-Edit-2511 DiT LoRA, rank 16 / alpha 32 / dropout 0.05, lr 5e-5, adamw8bit, bf16, --fp8_base --fp8_scaled,
# checkpointing, 16 of 60 blocks swapped, batch 1, 512-px buckets with 512-px control images, 6 epochs x 640 pairs.
# Trainer: musubi-tuner v0.2.15 (8ec95774, 2025-12-27), the copy pinned in the project (docs/ARCHITECTURE.md).
# Nothing filled from defaults except what musubi itself defaults (lr scheduler constant, max_grad_norm 1.0).
# Paths are the project's; the accelerate config file (single GPU) is dropped.
accelerate launch \
  --num_cpu_threads_per_process 1 \
  --mixed_precision bf16 \
  third_party/musubi-tuner/src/musubi_tuner/qwen_image_train_network.py \
  --dit models/hf/Qwen-Image-Edit-2511/transformer/diffusion_pytorch_model-00001-of-00005.safetensors \
  --vae models/hf/Qwen-Image-Edit-2511/vae/diffusion_pytorch_model.safetensors \
  --text_encoder models/hf/Qwen-Image-Edit-2511/text_encoder/model-00001-of-00004.safetensors \
  --dataset_config qwen_image_edit2511_lora_r16_512_swap16_3090_shibei1.toml \
  --model_version edit-2511 \
  --sdpa \
  --mixed_precision bf16 \
  --timestep_sampling shift \
  --weighting_scheme none \
  --discrete_flow_shift 2.2 \
  --optimizer_type adamw8bit \
  --learning_rate 5e-5 \
  --gradient_checkpointing \
  --blocks_to_swap 16 \
  --fp8_base \
  --fp8_scaled \
  --max_data_loader_n_workers 2 \
  --persistent_data_loader_workers \
  --gradient_accumulation_steps 1 \
  --network_module networks.lora_qwen_image \
  --network_dim 16 \
  --network_alpha 32 \
  --network_dropout 0.05 \
  --max_train_epochs 6 \
  --save_every_n_epochs 1 \
  --seed 3407 \
  --output_dir outputs/lora \
  --output_name qwen_image_enhance_lora
