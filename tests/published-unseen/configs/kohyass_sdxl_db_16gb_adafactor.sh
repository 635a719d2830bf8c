# Unseen case kohyass_sdxl_db_16gb_adafactor (vram-measurements.md row 44).
# bmaltais/kohya_ss#2530, b-fission, 2024-05-27: "Actually, it does seem possible to handle dreambooth with 16gb vram."
# Settings: train batch size 1; learning rate TE1 & TE2 0 (U-Net only); gradient checkpointing on; optimizer Adafactor
# or Lion8bit; cache text encoder outputs on (--cache_text_encoder_outputs); full fp16 (or bf16) training on.
# Given: all of the above (Adafactor chosen of the two; full fp16 chosen of fp16/bf16 to pair with row 43).
# Filled (not stated): 1024x1024, --cache_latents and --xformers (GUI defaults), Adafactor args (sd-scripts docs' example).
accelerate launch --num_cpu_threads_per_process 2 sdxl_train.py \
  --pretrained_model_name_or_path sd_xl_base_1.0.safetensors \
  --train_data_dir path/to/img --resolution 1024,1024 --train_batch_size 1 --enable_bucket \
  --output_dir path/to/model --output_name sdxl-db --save_model_as safetensors \
  --mixed_precision fp16 --full_fp16 --save_precision fp16 --xformers --gradient_checkpointing \
  --cache_latents --cache_text_encoder_outputs \
  --optimizer_type Adafactor --optimizer_args "scale_parameter=False" "relative_step=False" "warmup_init=False" \
  --learning_rate 1e-5 --lr_scheduler constant_with_warmup --lr_warmup_steps 100 \
  --max_train_epochs 10
