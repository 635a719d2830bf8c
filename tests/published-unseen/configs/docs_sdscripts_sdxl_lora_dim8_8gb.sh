# Docs case docs_sdscripts_sdxl_lora_dim8_8gb (expect fits 8).
# kohya-ss/sd-scripts docs/train_SDXL-en.md@48d368fa "Tips for SDXL training" (first in README.md 9d855091, 2023-08-04):
# "The default resolution of SDXL is 1024x1024." ... "The LoRA training can be done with 8GB GPU memory (10GB
# recommended). For reducing the GPU memory usage, the following options are recommended: Train U-Net only. Use gradient
# checkpointing. Use --cache_text_encoder_outputs option and caching latents. Use one of 8bit optimizers or Adafactor
# optimizer. Use lower dim (4 to 8 for 8GB GPU)."
# Given: sdxl_train_network.py, U-Net only (--network_train_unet_only), --gradient_checkpointing,
# --cache_text_encoder_outputs, --cache_latents, an 8-bit optimizer, dim 4 to 8, 1024x1024.
# Command: the basic example of docs/sdxl_train_network.md@48d368fa §3 (AdamW8bit, bf16, lr 1e-4, constant scheduler,
# network_alpha 16, checkpointing, TE outputs + latents cached) with the tip's options applied: --network_dim 8 (the
# upper end of "4 to 8", so the label holds for the range), --network_train_unet_only (U-Net only; the example's
# --text_encoder_lr1/2 dropped with it).
# Filled: --train_batch_size 1 (not stated; the setting under which the claim must hold), --resolution 1024,1024 (the
# tip's default resolution) and --train_data_dir/--enable_bucket in place of the example's --dataset_config (the doc:
# "it is common to use ... enable_bucket = true"), --sdpa (the example names no attention backend; sd-scripts' FLUX and
# SD3 sample commands use --sdpa), AdamW8bit kept of "one of 8bit optimizers or Adafactor" (the example's). Model: the
# SDXL base checkpoint. Placeholder paths.
accelerate launch --num_cpu_threads_per_process 1 sdxl_train_network.py \
    --pretrained_model_name_or_path="sd_xl_base_1.0.safetensors" \
    --train_data_dir=path/to/train_data --resolution=1024,1024 --train_batch_size=1 --enable_bucket \
    --output_dir=path/to/output --output_name="my_sdxl_lora" \
    --save_model_as=safetensors \
    --network_module=networks.lora \
    --network_dim=8 \
    --network_alpha=16 \
    --network_train_unet_only \
    --learning_rate=1e-4 \
    --unet_lr=1e-4 \
    --optimizer_type="AdamW8bit" \
    --lr_scheduler="constant" \
    --max_train_epochs=10 \
    --save_every_n_epochs=1 \
    --mixed_precision="bf16" \
    --sdpa \
    --gradient_checkpointing \
    --cache_text_encoder_outputs \
    --cache_latents
