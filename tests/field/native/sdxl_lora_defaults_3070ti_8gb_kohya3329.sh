# Field case sdxl_lora_defaults_3070ti_8gb_kohya3329, in sd-scripts' own form: the report gives no
# settings; a reply advises turning gradient checkpointing and text-encoder output caching on, so both are
# taken as off. The rest is the kohya_ss GUI's defaults (dim 8 / alpha 1, AdamW8bit, fp16, latents cached,
# xFormers, text-encoder LoRA trained) at SDXL's 1024 px (assumed: the GUI's 512 default is not an SDXL size).
accelerate launch sdxl_train_network.py \
  --pretrained_model_name_or_path sd_xl_base_1.0.safetensors \
  --train_data_dir img --output_dir out \
  --resolution 1024,1024 --enable_bucket \
  --cache_latents \
  --train_batch_size 1 \
  --mixed_precision fp16 --save_precision fp16 \
  --xformers \
  --optimizer_type AdamW8bit \
  --network_module networks.lora --network_dim 8 --network_alpha 1 \
  --unet_lr 1e-4 --text_encoder_lr 5e-5
