# Unseen case kohyass_sdxl_db_fullfp16_19gb (vram-measurements.md row 43).
# bmaltais/kohya_ss#2530, b-fission, 2024-05-24: "Even with the leanest config I can think of (batch size 1, unet only,
# gradient checkpointing, full fp16 training), I'm seeing almost 19gb of vram used while training." (SDXL DreamBooth,
# i.e. the GUI's sd-scripts sdxl_train.py.)
# Given: batch 1, U-Net only (no --train_text_encoder), --gradient_checkpointing, --full_fp16 (with --mixed_precision fp16).
# Filled (not stated): optimizer AdamW8bit, --cache_latents and --xformers (kohya_ss GUI defaults of that time:
# kohya_gui/class_basic_training.py / advanced training), 1024x1024 (SDXL's native size; the GUI's own default field is
# 512,512), text encoder outputs NOT cached (not mentioned here; the same author lists caching as an extra step for 16GB).
accelerate launch --num_cpu_threads_per_process 2 sdxl_train.py \
  --pretrained_model_name_or_path sd_xl_base_1.0.safetensors \
  --train_data_dir path/to/img --resolution 1024,1024 --train_batch_size 1 --enable_bucket \
  --output_dir path/to/model --output_name sdxl-db --save_model_as safetensors \
  --mixed_precision fp16 --full_fp16 --save_precision fp16 --xformers --gradient_checkpointing \
  --cache_latents \
  --optimizer_type AdamW8bit --learning_rate 1e-5 --lr_scheduler constant \
  --max_train_epochs 10
