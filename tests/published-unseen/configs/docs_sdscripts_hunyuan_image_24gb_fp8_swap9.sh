# Docs case docs_sdscripts_hunyuan_image_24gb_fp8_swap9 (expect fits 24).
# kohya-ss/sd-scripts docs/hunyuan_image_train_network.md@48d368fa, the VRAM table (lines 233-238, added f318ddae,
# 2025-09-16, a commit whose message says the text was written "by Claude"): "24GB VRAM | --fp8_scaled --blocks_to_swap 9".
# Given: hunyuan_image_train_network.py, the table's options only; no resolution, batch, rank or caching is stated.
# Command: the doc's example command (lines 113-141: network_dim 16, network_alpha 1, AdamW8bit, --attn_mode torch
# --split_attn, bf16, --gradient_checkpointing, --cache_text_encoder_outputs, --cache_latents, --network_train_unet_only)
# with the example's --blocks_to_swap 18 replaced by the table row's settings.
# Filled: --resolution 1024,1024 and --train_batch_size 1 in place of the example's --dataset_config (neither is stated;
# 1024 is the common LoRA dataset size, below the model's native 2048), placeholder paths.
accelerate launch --num_cpu_threads_per_process 1 hunyuan_image_train_network.py \
    --pretrained_model_name_or_path="hunyuanimage2.1.safetensors" --text_encoder="qwen_2.5_vl_7b.safetensors" \
    --byt5="byt5_small_glyphxl_fp16.safetensors" --vae="hunyuan_image_2.1_vae_fp16.safetensors" \
    --train_data_dir=path/to/train_data --resolution=1024,1024 --train_batch_size=1 --enable_bucket \
    --output_dir=path/to/output --output_name=my-hunyuanimage-lora --save_model_as=safetensors \
    --network_module=networks.lora_hunyuan_image --network_dim=16 --network_alpha=1 --network_train_unet_only \
    --learning_rate=1e-4 --optimizer_type="AdamW8bit" --lr_scheduler="constant" \
    --attn_mode="torch" --split_attn --max_train_epochs=10 --save_every_n_epochs=1 \
    --mixed_precision="bf16" --gradient_checkpointing --model_prediction_type="raw" --discrete_flow_shift=5.0 \
    --cache_text_encoder_outputs --cache_latents --fp8_scaled --blocks_to_swap 9
