#!/usr/bin/env bash
# Field case wan22_i2v_low_r32_1024_f57only_swap16_a100_peak_pudgyv8 (batch 2026-12-07f), in musubi-tuner's own form.
# Source: github.com/rlrahulkanojia/Pudgy - finetune/wan/train_pudgy_v8.sh (7359b1ad), training_approach/v8/
# Training_Approach_v8.md (06b3ea57), docs/training_reports/v8/REPORT_v8.md (18a0051b). v8: one fresh LoRA, rank 32 /
# alpha 32, on the low-noise DiT with a rank-48 LoRA merged in at load (--base_weights), adamw8bit lr 5e-5 with cosine
# to 10%, gradient accumulation 8, batch 1 at 1024x1024 / 24 fps, save every 50 optimizer steps + state.
# This file: the probe at BLOCKS_TO_SWAP=16 on the f57 bucket: "peaks at 81.2 GB with 31 allocator retry warnings and 77 s/clip".
# Hardware: 1x A100 80GB PCIe (Vast.ai, Linux).
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
  --base_weights /workspace/wan_output/v7_baseline/pudgy-v7-fixed-combined.safetensors --base_weights_multiplier 1.0 \
  --dataset_config wan22_i2v_low_r32_1024_f57only_swap16_a100_peak_pudgyv8.toml \
  --sdpa --mixed_precision fp16 \
  --network_module networks.lora_wan \
  --network_dim 32 --network_alpha 32 \
  --timestep_sampling shift --discrete_flow_shift 5.0 \
  --min_timestep 0 --max_timestep 900 --preserve_distribution_shape \
  --optimizer_type adamw8bit --learning_rate 5e-5 \
  --lr_scheduler cosine_with_min_lr --lr_warmup_steps 20 \
  --lr_scheduler_min_lr_ratio 0.1 \
  --gradient_accumulation_steps 8 --max_grad_norm 1.0 \
  --gradient_checkpointing \
  --max_data_loader_n_workers 2 --persistent_data_loader_workers \
  --max_train_steps 600 --save_every_n_steps 50 \
  --save_state \
  --seed 42 \
  --output_dir /workspace/wan_output/pudgy-v8-joint-lownoise --output_name pudgy-v8-joint-lownoise \
  --blocks_to_swap 16
