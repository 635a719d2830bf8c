#!/usr/bin/env bash
# Field case krea2_lora_r32_1024_swap26_expseg_3060_masafy (batch 2026-12-07f), in musubi-tuner's own form.
# Source: github.com/masafykun/krea2-character-lora at b92e021d - scripts/run_train.sh, scripts/dataset.toml,
# logs/run_info.txt (started 2026-06-24 17:12 UTC, musubi_commit 30c658c4, torch 2.6.0+cu124, RTX 3060 12288 MiB,
# 30 GiB RAM, Linux) and paper/paper_en.tex (2026-06-25).
# This file: scripts/run_train.sh as committed - the run that trained (1,300 steps, 8 h 23 min, ~23.2 s/step, peak about
# 11.9 GB) with PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True.
# Krea 2 RAW (12B single-stream MMDiT, 24.5 GiB bf16 file) with --fp8_base --fp8_scaled, 26 of 28 blocks swapped,
# checkpointing, SDPA, LoRA dim 32 / alpha 32, plain AdamW (optimizer_type adamw: fp32 moments), lr 1e-4, batch 1 at
# 1024 px, 13 images x 10 repeats x 10 epochs. Latents and Qwen3-VL text-encoder outputs are cached beforehand.
# Nothing filled from defaults: the command is complete (musubi 30c658c4 defaults for unset flags).
export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision bf16 \
  src/musubi_tuner/krea2_train_network.py \
  --dit models/krea2_raw.safetensors --vae models/qwen_image_vae.safetensors \
  --dataset_config krea2_lora_r32_1024_swap26_expseg_3060_masafy.toml \
  --sdpa --mixed_precision bf16 --fp8_base --fp8_scaled --blocks_to_swap 26 \
  --timestep_sampling shift --weighting_scheme none --discrete_flow_shift 2.5 \
  --network_module networks.lora_krea2 --network_dim 32 --network_alpha 32 \
  --optimizer_type adamw --learning_rate 1e-4 \
  --max_train_epochs 10 --save_every_n_epochs 2 --gradient_checkpointing --seed 42 \
  --output_dir output --output_name masafee_krea2 --logging_dir logs
