# Field case qwen_image_lora_r128_1328_swap7_musubi715, in musubi-tuner's own form: Qwen-Image LoRA with the settings the report
# states: FP8 (--fp8_base --fp8_scaled, the pair musubi's Qwen-Image documentation gives for fp8), rank 128,
# Adafactor, 1328x1328, --blocks_to_swap 7. The rest is the documentation's sample command of that date
# (docs/qwen_image.md: qwen_image_train_network.py, SDPA, bf16, shift 2.2, lr 5e-5, checkpointing); dataset
# qwen_image_lora_r128_1328_swap7_musubi715.toml (1328x1328 images, batch 1). Text-encoder outputs are cached by a separate run.
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision bf16 qwen_image_train_network.py \
  --dit qwen_image_bf16.safetensors \
  --vae qwen_image_vae.safetensors \
  --text_encoder qwen_2.5_vl_7b.safetensors \
  --dataset_config qwen_image_lora_r128_1328_swap7_musubi715.toml \
  --sdpa --mixed_precision bf16 \
  --fp8_base --fp8_scaled --blocks_to_swap 7 \
  --timestep_sampling shift \
  --weighting_scheme none --discrete_flow_shift 2.2 \
  --optimizer_type adafactor --optimizer_args "relative_step=False" "scale_parameter=False" "warmup_init=False" \
  --learning_rate 5e-5 --gradient_checkpointing \
  --max_data_loader_n_workers 2 --persistent_data_loader_workers \
  --network_module networks.lora_qwen_image \
  --network_dim 128 \
  --max_train_epochs 16 --save_every_n_epochs 1 --seed 42 \
  --output_dir out --output_name qwen-lora
