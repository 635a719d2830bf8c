# Field case sdxl_db_te_adafactor_p100_kohya1875, in sd-scripts' own form: the sdxl_train.py command the report pasted in full
# (Kaggle, P100 16 GB) with the --train_text_encoder the report adds: SDXL base 1.0 DreamBooth at 1024, batch 1,
# regularization images, Adafactor (no relative step, lr 5e-6, used for the text encoders too), xFormers, fp16 with
# --full_fp16, checkpointing, latents cached, no-half VAE.
accelerate launch --num_cpu_threads_per_process 2 sdxl_train.py \
  --pretrained_model_name_or_path stabilityai/stable-diffusion-xl-base-1.0 \
  --train_data_dir dataset/img \
  --reg_data_dir dataset/reg \
  --output_dir output --output_name SDXLDreambooth --save_model_as safetensors \
  --train_batch_size 1 \
  --max_train_steps 3000 --save_every_n_steps 1501 \
  --optimizer_type adafactor \
  --optimizer_args scale_parameter=False relative_step=False warmup_init=False \
  --xformers \
  --lr_scheduler constant_with_warmup --lr_warmup_steps 100 \
  --learning_rate 5e-6 \
  --max_grad_norm 0.0 \
  --resolution 1024,1024 \
  --save_precision fp16 --save_n_epoch_ratio 1 \
  --max_data_loader_n_workers 1 --persistent_data_loader_workers \
  --mixed_precision fp16 --full_fp16 \
  --logging_dir logs --log_prefix last \
  --gradient_checkpointing \
  --caption_extension .txt \
  --no_half_vae \
  --cache_latents \
  --train_text_encoder
