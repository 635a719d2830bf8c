# Unseen case sdscripts_sdxl_fused_full_bf16_10gb (vram-measurements.md row 38, the bf16 figure of the same PR).
# kohya-ss/sd-scripts PR #1259 description (2kpr, 2024-04-14), title "Adafactor fused backward pass and optimizer step,
# lowers SDXL VRAM used to BF16(10GB)/FP32(16.4GB)"; README.md@f3d2cf22: "If you specify the --full_bf16 option, you can
# further reduce the memory usage".
# Given: sdxl_train.py, fused Adafactor, BF16 (read as --mixed_precision bf16 --full_bf16, the README's wording), batch 1
# (the README's figure is at batch 1; 2kpr's own batch size is not stated).
# Filled (not stated): as sdscripts_sdxl_fused_fp32_17gb.sh (1024x1024, U-Net only, checkpointing, TE outputs + latents
# cached, --sdpa).
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision bf16 sdxl_train.py \
  --pretrained_model_name_or_path sd_xl_base_1.0.safetensors \
  --train_data_dir path/to/train_data --resolution 1024,1024 --train_batch_size 1 \
  --output_dir path/to/output --output_name sdxl-ft --save_model_as safetensors \
  --mixed_precision bf16 --full_bf16 --sdpa --gradient_checkpointing \
  --cache_text_encoder_outputs --cache_latents \
  --optimizer_type adafactor --optimizer_args "scale_parameter=False" "relative_step=False" "warmup_init=False" \
  --fused_backward_pass --lr_scheduler constant_with_warmup --lr_warmup_steps 100 --learning_rate 4e-7 \
  --max_train_epochs 4
