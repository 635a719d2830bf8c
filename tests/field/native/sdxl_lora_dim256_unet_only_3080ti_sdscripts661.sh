# Field case sdxl_lora_dim256_unet_only_3080ti_sdscripts661, in sd-scripts' own form: the report's pasted command (sdxl_train_network.py,
# SDXL base 1.0 at 1024, full bf16, Adafactor, latents cached to disk, batch 1) with the change it states: text
# encoder training disabled (--network_train_unet_only) and network_dim raised to 256 (alpha 1). Cut after
# --max_data_loader_n_workers=0; --bucket_reso_steps 64, --gradient_checkpointing and --xformers assumed as in
# sdxl_lora_dim32_te_3080ti_sdscripts661 (the kohya_ss GUI's order). Text-encoder outputs not cached (not said).
accelerate launch --num_cpu_threads_per_process 8 sdxl_train_network.py \
  --enable_bucket --min_bucket_reso 256 --max_bucket_reso 2048 \
  --pretrained_model_name_or_path sd_xl_base_1.0.safetensors \
  --train_data_dir traintest \
  --resolution 1024,1024 \
  --output_dir traintest --logging_dir traintest \
  --network_alpha 1 \
  --save_model_as safetensors \
  --network_module networks.lora \
  --unet_lr 0.0004 \
  --network_dim 256 --network_train_unet_only \
  --output_name traintest \
  --lr_scheduler_num_cycles 10 \
  --no_half_vae \
  --full_bf16 \
  --learning_rate 0.0004 --lr_scheduler constant \
  --train_batch_size 1 --max_train_steps 1000 --save_every_n_epochs 1 \
  --mixed_precision bf16 --save_precision bf16 \
  --cache_latents --cache_latents_to_disk \
  --optimizer_type Adafactor --optimizer_args scale_parameter=False relative_step=False warmup_init=False \
  --max_data_loader_n_workers 0 \
  --bucket_reso_steps 64 --gradient_checkpointing --xformers
