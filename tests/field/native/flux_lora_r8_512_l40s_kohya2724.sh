# Field case flux_lora_r8_512_l40s_kohya2724, in sd-scripts' own form: kohya_ss GUI FLUX LoRA, stated:
# standard LoRA, batch 1, latents cached to disk, 512 px, rank 8 / alpha 1. Not stated (fp8 base,
# checkpointing, text-encoder caching): the GUI's FLUX preset ("flux1D - adamw8bit fp8"), as the mapping did.
accelerate launch --mixed_precision bf16 flux_train_network.py \
  --pretrained_model_name_or_path flux1-dev.safetensors \
  --clip_l clip_l.safetensors --t5xxl t5xxl_fp16.safetensors --ae ae.safetensors \
  --train_data_dir img --output_dir out \
  --resolution 512,512 --enable_bucket \
  --cache_latents --cache_latents_to_disk \
  --cache_text_encoder_outputs --cache_text_encoder_outputs_to_disk \
  --train_batch_size 1 \
  --gradient_checkpointing \
  --mixed_precision bf16 --full_bf16 --save_precision bf16 \
  --fp8_base --sdpa \
  --optimizer_type AdamW8bit \
  --network_module networks.lora_flux --network_dim 8 --network_alpha 1 \
  --unet_lr 3e-4 --network_train_unet_only \
  --guidance_scale 1.0 --t5xxl_max_token_length 512
