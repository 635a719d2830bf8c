#!/usr/bin/env bash
# Field case wan22_i2v_low_r16_768x1360x33_noswap_a100_peak_pudgyv2 (batch 2026-12-07f), in musubi-tuner's own form.
# Source: github.com/rlrahulkanojia/Pudgy at a1e91274 (2026-07-15): finetune/wan/train_pudgy_wan_a14b.sh,
# finetune/wan/dataset_config.toml, finetune/wan/README.md; docs/training_reports/v2/REPORT_lownoise_golden.md.
# The v2 low-noise run (EXPERT=low, EPOCHS=40, SAVE_EVERY=2): the README says that run pre-dates --save_state and
# in-training sampling, so both are left out; FP8_BASE=0 (no --fp8_base), no block swap. A100 80GB PCIe.
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
  --dataset_config wan22_i2v_low_r16_768x1360x33_noswap_a100_peak_pudgyv2.toml \
  --sdpa --mixed_precision fp16 \
  --network_module networks.lora_wan \
  --network_dim 16 --network_alpha 32 \
  --timestep_sampling shift --discrete_flow_shift 5.0 \
  --min_timestep 0 --max_timestep 900 --preserve_distribution_shape \
  --optimizer_type adamw8bit --learning_rate 5e-5 \
  --gradient_checkpointing \
  --max_data_loader_n_workers 2 --persistent_data_loader_workers \
  --max_train_epochs 40 --save_every_n_epochs 2 \
  --seed 42 \
  --output_dir /workspace/wan_output/pudgy-wan22-a14b-lownoise --output_name pudgy-wan22-a14b-lownoise
