# Field case flux_kontext_lora_fp8_noswap_3060_musubi405, in musubi-tuner's own form: FLUX.1 Kontext LoRA (flux_kontext_train_network.py)
# with --fp8_base --fp8_scaled (the part of the command the report shows; the rest is elided with ".."). The
# log shows the DiT optimized to fp8 and then moved to CUDA whole ("Moving weights to cuda"), so no block swap.
# The rest is the documentation's sample command of that date (docs/flux_kontext.md: SDPA, bf16, flux_shift,
# AdamW8bit lr 1e-4, checkpointing, LoRA dim 32); dataset flux_kontext_lora_fp8_noswap_3060_musubi405.toml (target and control
# images, 1024x1024, batch 1).
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision bf16 flux_kontext_train_network.py \
  --dit flux1-kontext-dev.safetensors \
  --vae ae.safetensors \
  --text_encoder1 t5xxl_fp16.safetensors \
  --text_encoder2 clip_l.safetensors \
  --dataset_config flux_kontext_lora_fp8_noswap_3060_musubi405.toml \
  --sdpa --mixed_precision bf16 \
  --fp8_scaled --fp8_base \
  --timestep_sampling flux_shift --weighting_scheme none \
  --optimizer_type adamw8bit --learning_rate 1e-4 --gradient_checkpointing \
  --max_data_loader_n_workers 2 --persistent_data_loader_workers \
  --network_module networks.lora_flux --network_dim 32 \
  --max_train_epochs 16 --save_every_n_epochs 1 --seed 42 \
  --output_dir out --output_name kontext-lora
