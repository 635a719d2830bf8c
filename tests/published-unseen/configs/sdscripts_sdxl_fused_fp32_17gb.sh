# Unseen case sdscripts_sdxl_fused_fp32_17gb (vram-measurements.md row 38).
# kohya-ss/sd-scripts README.md@f3d2cf22 (2024-05-12, fused optimizer, PR #1259 by 2kpr): "--fused_backward_pass option in
# sdxl_train.py. At this time, only AdaFactor is supported." "Setting mixed precision to `no` seems to use less memory than
# fp16 or bf16." "Training is possible with a memory usage of about 17GB with a batch size of 1 and fp32."
# (2kpr's PR #1259 description, 2024-04-14: "in FP32 drops to 16.4GB".)
# Given: sdxl_train.py, --fused_backward_pass, Adafactor, batch 1, fp32 (--mixed_precision no).
# Filled (not stated): 1024x1024, U-Net only, --gradient_checkpointing, --cache_text_encoder_outputs, --cache_latents
# (the doc's 24GB fine-tuning recommendations), Adafactor args of the PR #1319 usage line, --sdpa, file names.
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision no sdxl_train.py \
  --pretrained_model_name_or_path sd_xl_base_1.0.safetensors \
  --train_data_dir path/to/train_data --resolution 1024,1024 --train_batch_size 1 \
  --output_dir path/to/output --output_name sdxl-ft --save_model_as safetensors \
  --mixed_precision no --sdpa --gradient_checkpointing \
  --cache_text_encoder_outputs --cache_latents \
  --optimizer_type adafactor --optimizer_args "scale_parameter=False" "relative_step=False" "warmup_init=False" \
  --fused_backward_pass --lr_scheduler constant_with_warmup --lr_warmup_steps 100 --learning_rate 4e-7 \
  --max_train_epochs 4
