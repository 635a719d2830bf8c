#!/usr/bin/env bash
# Field case qwen_image_edit2511_lora_r32_1024_swap24_4090_windows_gitruck (batch 2026-12-07f), in musubi-tuner's own form.
# Source: github.com/Gitruck/ai-drama-desk lora/README.md ("风格 LoRA 固化 · 运行手册", step 2) at 68b6d1c0 (2026-07-22), with
# lora/dataset.example.toml; the machine (Windows + RTX 4090) from docs/使用手册.md and README.md at the same commit.
# This file: the runbook's command as printed (the run that trained: 2304 steps in about 12-15 h on the project's RTX 4090).
# Qwen-Image-Edit-2511 style LoRA with black control images, bf16 DiT loaded with --fp8_base --fp8_scaled, adamw8bit,
# dim 32 / alpha 16, checkpointing, batch 1 at 1024 px, --save_state every 100 steps. Text-encoder outputs are cached
# beforehand with --fp8_vl (not part of this command). The runbook's placeholders (<你的训练器目录> etc.) are written as
# plain relative paths; Windows venv paths (./venv/Scripts/accelerate.exe) are written as accelerate.
# musubi-tuner version not pinned by the project: defaults read at 30c658c4 (2026-06-24, v0.3.4), the last commit before the
# report in the local mirror; every memory-relevant argument is given on the line, so no default fills one.
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision bf16 \
  src/musubi_tuner/qwen_image_train_network.py \
  --dit models/diffusion_models/qwen_image_edit_2511_bf16.safetensors \
  --vae models/vae/qwen_image_vae.safetensors \
  --text_encoder models/text_encoders/qwen_2.5_vl_7b.safetensors \
  --model_version edit-2511 \
  --dataset_config qwen_image_edit2511_lora_r32_1024_swap24_4090_windows_gitruck.toml \
  --sdpa --mixed_precision bf16 \
  --fp8_base --fp8_scaled --blocks_to_swap 24 \
  --timestep_sampling shift --weighting_scheme none --discrete_flow_shift 2.2 \
  --optimizer_type adamw8bit --learning_rate 1e-4 --gradient_checkpointing \
  --max_data_loader_n_workers 2 --persistent_data_loader_workers \
  --network_module networks.lora_qwen_image --network_dim 32 --network_alpha 16 \
  --max_train_epochs 16 --save_every_n_steps 100 --save_state --seed 42 \
  --output_dir lora/output --output_name example_style_v1
