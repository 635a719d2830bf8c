# Field case sdxl_db_te_adafactor_kaggle15gb_sdscripts1131, in sd-scripts' own form: the sdxl_train.py command the report pasted
# (Kaggle, "15 GB gpu"): SDXL base 1.0 DreamBooth at 1024 with both text encoders trained (--train_text_encoder,
# TE1 lr 3e-6, TE2 at the main lr 1e-5 as sdxl_train.py does when --learning_rate_te2 is absent), Adafactor
# (weight decay 0.01, no relative step), fp16 with --full_fp16, --mem_eff_attn, checkpointing, latents cached to
# disk, no-half VAE, regularization images, buckets without upscale. The stored command is cut after
# "--reg_data_dir=/kaggle/working/r..."; the GUI-ordered tail is filled with sd-scripts' defaults: batch 1
# (argparse default), --save_precision fp16, the train_data_dir. The --ddp_* flags point to a 2-GPU (T4 x2) DDP
# launch on Kaggle; written here as one process (accelerate's default), per-GPU memory being the question.
accelerate launch --num_cpu_threads_per_process=4 sdxl_train.py \
  --max_grad_norm=0.0 --no_half_vae --train_text_encoder \
  --ddp_timeout=10000000 --ddp_gradient_as_bucket_view \
  --bucket_no_upscale --bucket_reso_steps=64 \
  --cache_latents --cache_latents_to_disk \
  --full_fp16 --gradient_checkpointing \
  --learning_rate=1e-05 --learning_rate_te1=3e-06 \
  --logging_dir=/kaggle/working/results/log \
  --lr_scheduler=constant --lr_scheduler_num_cycles=1 \
  --max_data_loader_n_workers=0 \
  --resolution=1024,1024 \
  --max_train_steps=1500 \
  --mem_eff_attn \
  --mixed_precision=fp16 \
  --optimizer_args scale_parameter=False relative_step=False warmup_init=False weight_decay=0.01 \
  --optimizer_type=Adafactor \
  --output_dir=/kaggle/working/results/model --output_name=2024_02_21_kaggle \
  --pretrained_model_name_or_path=stabilityai/stable-diffusion-xl-base-1.0 \
  --reg_data_dir=/kaggle/working/reg \
  --save_model_as=safetensors --save_precision=fp16 \
  --train_batch_size=1 \
  --train_data_dir=/kaggle/working/img
