# Field case flux_lora_fp8_5060ti_derrian344, in sd-scripts' own form: the settings LoRA_Easy_Training_Scripts
# passed (pasted in the report): fp8 base, gradient checkpointing, full bf16, bf16 mixed precision, latents
# cached to disk, SDPA, the FLUX.1-dev fp8 checkpoint and an fp8 T5-XXL, AdamW8bit. Not given, as the
# mapping assumed: buckets up to 1024 px, rank 32 / alpha 32; text-encoder outputs not cached (the script's default).
accelerate launch --mixed_precision bf16 flux_train_network.py \
  --pretrained_model_name_or_path flux1-dev-fp8.safetensors \
  --clip_l clip_l.safetensors --t5xxl t5xxl_fp8_e4m3fn.safetensors --ae ae.safetensors \
  --train_data_dir img --output_dir out \
  --resolution 1024,1024 --enable_bucket --min_bucket_reso 512 --max_bucket_reso 1024 \
  --cache_latents --cache_latents_to_disk \
  --train_batch_size 1 \
  --gradient_checkpointing \
  --mixed_precision bf16 --full_bf16 --save_precision bf16 \
  --fp8_base --sdpa \
  --optimizer_type AdamW8bit \
  --network_module networks.lora_flux --network_dim 32 --network_alpha 32 \
  --unet_lr 1e-4 --network_train_unet_only
