# Field case sdxl_lora_dim8_512_unetonly_4070ti_smoke_kura (sd-scripts), rebuilt from batch 18's entry: SDXL on RTX 4070 Ti 12GB (local Docker), outcome fits.
# Source: https://github.com/nomadoor/Kura/blob/5dba0b9634762d44ea3e63f13c81a26f27bb8e7f/docs/smoke-evidence/2026-08-01-sd-scripts-sdxl-docker.yaml
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision bf16 sdxl_train_network.py \
  --pretrained_model_name_or_path /models/sdxl/sd_xl_base_1.0.safetensors \
  --dataset_config sdxl_lora_dim8_512_unetonly_4070ti_smoke_kura.toml \
  --network_module networks.lora --network_dim 8 --network_alpha 4 --network_train_unet_only \
  --learning_rate 1e-4 --optimizer_type AdamW8bit --mixed_precision bf16 --save_precision bf16 \
  --cache_latents --cache_latents_to_disk --cache_text_encoder_outputs --cache_text_encoder_outputs_to_disk \
  --max_train_steps 1 --seed 42 --output_dir /workspace/outputs --output_name smoke_sdxl
