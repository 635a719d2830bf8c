#!/usr/bin/env bash
# Field case wan22_i2v_low_r16_1024_motion_noswap_a100_pudgyv7 (batch 2026-12-07f), in musubi-tuner's own form.
# Source: github.com/rlrahulkanojia/Pudgy - finetune/wan/train_pudgy_v7.sh (498ec3ae), finetune/wan/prep_v7.py and
# training_approach/v7/GPU_HANDOFF_v7.md (27bf3d2e), docs/training_reports/v7/REPORT_v7.md (d34da6e3). v7: continue-
# training of the v2 low-noise golden (--network_weights, rank 16 / alpha 32), lr 3e-5, save every 250 steps + state,
# 1024x1024 clips at 24 fps in one [[datasets]] block per frame bucket (prep_v7.py emit()).
# This file: the motion low-noise arm (EXPERT=low, EPOCHS=2, NAME=pudgy-v7-motion-lownoise) at the default BLOCKS_TO_SWAP=0 (2,144 steps, 16 h, 26.8 s/it).
# Hardware: 1x A100-80GB PCIe, driver 595.71.05 (REPORT_v7).
#
# Trainer: musubi-tuner 0.3.4 (the project clones kohya-ss/musubi-tuner with --depth 1 and records 0.3.4; defaults read
# at 30c658c4, 2026-06-24, v0.3.4). Model: Wan2.2-I2V-A14B low-noise expert, Comfy-Org fp16 DiT (28.6 GB), no fp8: the
# project trains in fp16 because musubi refuses bf16 training on fp16 weights. Latents and T5 outputs are cached beforehand
# (wan_cache_latents.py --i2v, wan_cache_text_encoder_outputs.py), so neither the VAE nor T5 is loaded here. All paths are
# the project's /workspace paths; wandb/tensorboard logging flags are dropped (no memory effect).
export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision fp16 \
  src/musubi_tuner/wan_train_network.py \
  --task i2v-A14B \
  --dit /workspace/wan_models/comfy22/split_files/diffusion_models/wan2.2_i2v_low_noise_14B_fp16.safetensors \
  --dataset_config wan22_i2v_low_r16_1024_motion_noswap_a100_pudgyv7.toml \
  --sdpa --mixed_precision fp16 \
  --network_module networks.lora_wan \
  --network_dim 16 --network_alpha 32 \
  --timestep_sampling shift --discrete_flow_shift 5.0 \
  --min_timestep 0 --max_timestep 900 --preserve_distribution_shape \
  --optimizer_type adamw8bit --learning_rate 3e-5 \
  --gradient_checkpointing \
  --max_data_loader_n_workers 2 --persistent_data_loader_workers \
  --max_train_epochs 2 --save_every_n_epochs 1 \
  --save_state \
  --seed 42 \
  --output_dir /workspace/wan_output/pudgy-v7-motion-lownoise --output_name pudgy-v7-motion-lownoise \
  --network_weights /workspace/wan_output/v2_golden/lora_lownoise_GOLDEN_ep40.safetensors \
  --save_every_n_steps 250
