# Field case sdxl_db_unet_adafactor_tecache_16gb_kohya2530, in sd-scripts' own form: the kohya_ss GUI's Dreambooth tab (sdxl_train.py) with
# the settings the report lists for 16 GB: batch 1, text-encoder learning rates 0 (U-Net only: no
# --train_text_encoder), gradient checkpointing, Adafactor, --cache_text_encoder_outputs, full fp16 (written with
# fp16 mixed precision). Not given: SDXL base 1.0 at 1024 px (SDXL's native size; the GUI's own default was
# 512,512), latents cached, xFormers, no-half VAE (the report's other thread says the GUI needs it for SDXL),
# Adafactor without relative step at lr 1e-5.
accelerate launch --num_cpu_threads_per_process 2 sdxl_train.py \
  --pretrained_model_name_or_path sd_xl_base_1.0.safetensors \
  --train_data_dir img --output_dir out --output_name sdxl_db --save_model_as safetensors \
  --resolution 1024,1024 --enable_bucket \
  --train_batch_size 1 \
  --gradient_checkpointing \
  --mixed_precision fp16 --full_fp16 --save_precision fp16 \
  --cache_latents --cache_text_encoder_outputs \
  --xformers --no_half_vae \
  --optimizer_type Adafactor --optimizer_args scale_parameter=False relative_step=False warmup_init=False \
  --learning_rate 1e-5 --lr_scheduler constant
