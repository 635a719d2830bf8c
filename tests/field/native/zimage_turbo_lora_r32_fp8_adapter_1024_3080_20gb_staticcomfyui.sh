# Field case zimage_turbo_lora_r32_fp8_adapter_1024_3080_20gb_staticcomfyui, in musubi-tuner's own form: train_lora/musubi_train.sh of
# quqiufeng/static_comfyui in the version that train_lora.md's musubi section ran (stored versions earlier than 1d372b7b; the index gives
# no commit for them): Z-Image-Turbo DiT (dimitribarbot/Z-Image-Turbo-BF16 shard 1 of 2) with ostris's zimage_turbo_training_adapter_v2
# merged via --base_weights, --fp8_base --fp8_scaled, no block swap, gradient checkpointing, SDPA, adamw8bit lr 1e-4, LoRA dim/alpha 32,
# 16 epochs x 56 images = 896 steps, a save every epoch; latents and Qwen3 text-encoder outputs cached beforehand (no TE during training).
# Dataset (.toml beside): 56 style images (long side <= 1536) in 1024 buckets, batch 1, upscaling allowed.
# Card: RTX 3080 20GB (the 20 GB variant; Linux, torch 2.6.0+cu126). musubi-tuner from source, commit not given (30c658c4 of 2026-06-24
# read for defaults; the file dates its final recipe 2026-10).
# Outcome: fits - "实测：56 图 / batch1 / 896 步 ≈ 6.6s/步，~1h40m" and "已端到端跑通".
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision bf16 src/musubi_tuner/zimage_train_network.py \
  --dit z-image-turbo/transformer/diffusion_pytorch_model-00001-of-00002.safetensors \
  --vae z-image-turbo/vae/diffusion_pytorch_model.safetensors \
  --text_encoder z-image-te-qwen3.safetensors \
  --base_weights zimage_turbo_training_adapter_v2.safetensors \
  --dataset_config zimage_turbo_lora_r32_fp8_adapter_1024_3080_20gb_staticcomfyui.toml \
  --sdpa --mixed_precision bf16 \
  --timestep_sampling shift --weighting_scheme none --discrete_flow_shift 2.0 \
  --optimizer_type adamw8bit --learning_rate 1e-4 \
  --gradient_checkpointing --fp8_base --fp8_scaled \
  --max_data_loader_n_workers 2 --persistent_data_loader_workers \
  --network_module networks.lora_zimage --network_dim 32 --network_alpha 32 \
  --seed 42 --output_dir mystyle_musubi --output_name mystyle \
  --max_train_epochs 16 --save_every_n_epochs 1
