# Field case sdxl_lora_dim16_bs2_12gb_sdscripts648, in sd-scripts' own form: the report pasted an
# sdxl_train_network TOML; these are its values as arguments. Not in the report: paths (placeholders).
accelerate launch sdxl_train_network.py \
  --pretrained_model_name_or_path sd_xl_base_1.0.safetensors \
  --train_data_dir img --output_dir out \
  --resolution 1024,1024 --enable_bucket --bucket_no_upscale \
  --cache_latents \
  --train_batch_size 2 \
  --xformers \
  --gradient_checkpointing \
  --mixed_precision fp16 \
  --optimizer_type AdamW8bit \
  --network_module networks.lora --network_dim 16 --network_alpha 8 \
  --unet_lr 5e-4 --text_encoder_lr 1e-4 \
  --max_token_length 225 \
  --sample_every_n_epochs 1 --sample_prompts prompts.txt
