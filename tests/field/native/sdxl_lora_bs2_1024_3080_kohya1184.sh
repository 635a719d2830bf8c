# Field case sdxl_lora_bs2_1024_3080_kohya1184, in sd-scripts' own form: the kohya_ss GUI JSON the report
# pasted (read in part: Standard LoRA, gradient checkpointing, latents cached to disk, buckets; batch 2 at
# 1024). Not in the part read, so the GUI's defaults of July 2023: network dim 8 / alpha 1, AdamW8bit,
# fp16 mixed precision, xFormers, text-encoder LoRA trained (text_encoder_lr 5e-5), no samples.
accelerate launch sdxl_train_network.py \
  --pretrained_model_name_or_path sd_xl_base_1.0.safetensors \
  --train_data_dir img --output_dir out \
  --resolution 1024,1024 --enable_bucket \
  --cache_latents --cache_latents_to_disk \
  --train_batch_size 2 \
  --gradient_checkpointing \
  --mixed_precision fp16 --save_precision fp16 \
  --xformers \
  --optimizer_type AdamW8bit \
  --network_module networks.lora --network_dim 8 --network_alpha 1 \
  --unet_lr 1e-4 --text_encoder_lr 5e-5
