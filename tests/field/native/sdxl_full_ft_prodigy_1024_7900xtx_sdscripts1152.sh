# Field case sdxl_full_ft_prodigy_1024_7900xtx_sdscripts1152, in sd-scripts' own form: the sdxl_train.py command the report pasted
# (full fine-tune of SDXL base 1.0, no-half VAE, bf16 with --full_bf16, SDPA, checkpointing, latents cached,
# Prodigy with d_coef 1 / weight decay 0.01 / decouple, text encoders not trained: no --train_text_encoder).
# Its dataset.toml is not shown; the report states resolution 1024 and batch size 1 (sdxl_full_ft_prodigy_1024_7900xtx_sdscripts1152.toml).
# The report ran ./sdxl_train.py directly (single process); written with accelerate launch like the other cases.
accelerate launch sdxl_train.py \
  --pretrained_model_name_or_path sd_xl_base_1.0.safetensors \
  --vae sdxl_vae.safetensors \
  --no_half_vae \
  --mixed_precision bf16 \
  --full_bf16 \
  --sdpa \
  --noise_offset 0.0357 \
  --gradient_checkpointing \
  --gradient_accumulation_steps 1 \
  --output_dir out --output_name ohwx_09 --save_model_as safetensors \
  --dataset_config sdxl_full_ft_prodigy_1024_7900xtx_sdscripts1152.toml \
  --cache_latents \
  --max_train_epochs 200 \
  --learning_rate 1 \
  --save_every_n_epochs 1 \
  --lr_scheduler cosine \
  --optimizer_args "d_coef=1" "weight_decay=0.01" "betas=0.9,0.99" "safeguard_warmup=True" "use_bias_correction=True" "decouple=True" \
  --optimizer_type Prodigy
