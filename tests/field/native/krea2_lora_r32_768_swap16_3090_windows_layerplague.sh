#!/usr/bin/env bash
# Field case krea2_lora_r32_768_swap16_3090_windows_layerplague (batch 2026-12-07f), in musubi-tuner's own form.
# Source: github.com/layerplague867/lora-training-skill at 807afb63 - krea2-pipeline/scripts/train_krea2.bat and
# krea2-pipeline/README.md ("Krea 2 LoRA Pipeline (local, 24 GB GPU)": a single RTX 3090, display attached, Windows).
# The .bat's accelerate line, in bash form (%VARS% from env.example.bat written as plain paths; the log redirection and
# the accelerate --num_processes/--num_machines/--dynamo_backend pass-through flags are kept as given):
# Krea 2 RAW with --fp8_base --fp8_scaled, 16 of 28 blocks swapped, checkpointing, SDPA, LoRA dim 32 / alpha 32,
# adamw8bit lr 1e-4, --save_state every 150 steps. Latents and text-encoder outputs cached beforehand (train_krea2_chained.bat).
# The dataset TOML (%WORK%/musubi_dataset.toml) is not published: the README's "768 px" is written in; batch size,
# bucketing and repeats are musubi's dataset defaults (batch 1, no bucketing) at 30c658c4 (2026-06-24, v0.3.4, the
# first release with krea2_train_network.py; the project does not pin a commit).
accelerate launch \
  --num_processes 1 --num_machines 1 --num_cpu_threads_per_process 1 \
  --mixed_precision bf16 --dynamo_backend no \
  src/musubi_tuner/krea2_train_network.py \
  --dit models/krea2-raw/raw.safetensors --vae models/anima/models/vae/qwen_image_vae.safetensors \
  --dataset_config krea2_lora_r32_768_swap16_3090_windows_layerplague.toml \
  --sdpa --mixed_precision bf16 \
  --timestep_sampling shift --weighting_scheme none --discrete_flow_shift 2.5 \
  --optimizer_type adamw8bit --learning_rate 1e-4 \
  --gradient_checkpointing --fp8_base --fp8_scaled --blocks_to_swap 16 \
  --max_data_loader_n_workers 2 --persistent_data_loader_workers \
  --network_module networks.lora_krea2 --network_dim 32 --network_alpha 32 \
  --max_train_epochs 12 --save_every_n_epochs 4 \
  --save_every_n_steps 150 --save_state --save_last_n_steps_state 300 \
  --logging_dir logs --log_prefix mychar-krea2-v1 --seed 42 \
  --output_dir work/mychar/output --output_name mychar-krea2-v1
