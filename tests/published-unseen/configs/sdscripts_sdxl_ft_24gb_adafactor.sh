# Unseen case sdscripts_sdxl_ft_24gb_adafactor (vram-measurements.md row 37).
# kohya-ss/sd-scripts README.md@31018d57 (2023-06-26, "Tips for SDXL training"; now docs/train_SDXL-en.md@48d368fa):
# "The fine-tuning can be done with 24GB GPU memory with the batch size of 1": train U-Net only, gradient checkpointing,
# --cache_text_encoder_outputs and caching latents, Adafactor (the doc's Adafactor example: scale_parameter/relative_step/
# warmup_init False, constant_with_warmup, 100 warmup steps, lr 4e-7). "The default resolution of SDXL is 1024x1024."
# The source gives no command line. Filled: --mixed_precision bf16 (no --full_bf16: it did not exist on that date),
# --xformers (the attention flag of sd-scripts' 2023 examples), model file name, data dir; U-Net only = no
# --train_text_encoder (sdxl_train.py's default).
accelerate launch --num_cpu_threads_per_process 1 sdxl_train.py \
  --pretrained_model_name_or_path sd_xl_base_1.0.safetensors \
  --train_data_dir path/to/train_data --resolution 1024,1024 --train_batch_size 1 \
  --output_dir path/to/output --output_name sdxl-ft --save_model_as safetensors \
  --mixed_precision bf16 --xformers --gradient_checkpointing \
  --cache_text_encoder_outputs --cache_latents \
  --optimizer_type adafactor --optimizer_args "scale_parameter=False" "relative_step=False" "warmup_init=False" \
  --lr_scheduler constant_with_warmup --lr_warmup_steps 100 --learning_rate 4e-7 \
  --max_train_epochs 4
