# Field case flux_lora_768_16gb_kohya2819, in sd-scripts' own form: kohya_ss GUI FLUX LoRA at 768 px; only
# the resolution is stated, so the rest is the GUI's FLUX preset ("flux1D - adamw8bit fp8": fp8 base,
# full bf16, gradient checkpointing, latents and text-encoder outputs cached to disk, AdamW8bit, dim 16 /
# alpha 16, SDPA, T5-XXL fp16, batch 1).
accelerate launch --mixed_precision bf16 flux_train_network.py \
  --pretrained_model_name_or_path flux1-dev.safetensors \
  --clip_l clip_l.safetensors --t5xxl t5xxl_fp16.safetensors --ae ae.safetensors \
  --train_data_dir img --output_dir out \
  --resolution 768,768 --enable_bucket \
  --cache_latents --cache_latents_to_disk \
  --cache_text_encoder_outputs --cache_text_encoder_outputs_to_disk \
  --train_batch_size 1 \
  --gradient_checkpointing \
  --mixed_precision bf16 --full_bf16 --save_precision bf16 \
  --fp8_base --sdpa \
  --optimizer_type AdamW8bit \
  --network_module networks.lora_flux --network_dim 16 --network_alpha 16 \
  --unet_lr 3e-4 --network_train_unet_only \
  --guidance_scale 1.0 --t5xxl_max_token_length 512
