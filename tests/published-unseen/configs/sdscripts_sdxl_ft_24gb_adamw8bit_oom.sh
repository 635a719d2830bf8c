# Unseen case sdscripts_sdxl_ft_24gb_adamw8bit_oom (vram-measurements.md row 37, negative half).
# kohya-ss/sd-scripts README.md@31018d57 (2023-06-26; now docs/train_SDXL-en.md@48d368fa), the 24GB fine-tuning tips:
# "Use Adafactor optimizer. RMSprop 8bit or Adagrad 8bit may work. AdamW 8bit doesn't seem to work."
# Same job as sdscripts_sdxl_ft_24gb_adafactor.sh with AdamW8bit in place of Adafactor (lr 4e-7, constant_with_warmup kept).
# Filled: --mixed_precision bf16, --xformers, model file name, data dir (as in the Adafactor case).
accelerate launch --num_cpu_threads_per_process 1 sdxl_train.py \
  --pretrained_model_name_or_path sd_xl_base_1.0.safetensors \
  --train_data_dir path/to/train_data --resolution 1024,1024 --train_batch_size 1 \
  --output_dir path/to/output --output_name sdxl-ft --save_model_as safetensors \
  --mixed_precision bf16 --xformers --gradient_checkpointing \
  --cache_text_encoder_outputs --cache_latents \
  --optimizer_type AdamW8bit \
  --lr_scheduler constant_with_warmup --lr_warmup_steps 100 --learning_rate 4e-7 \
  --max_train_epochs 4
