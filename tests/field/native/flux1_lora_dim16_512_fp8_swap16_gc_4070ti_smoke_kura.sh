# Field case flux1_lora_dim16_512_fp8_swap16_gc_4070ti_smoke_kura (sd-scripts), rebuilt from batch 18's entry: FLUX.1 on RTX 4070 Ti 12GB (local Docker), outcome fits.
# Source: https://github.com/nomadoor/Kura/blob/5dba0b9634762d44ea3e63f13c81a26f27bb8e7f/docs/smoke-evidence/2026-08-01-sd-scripts-flux1-docker.yaml
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision bf16 flux_train_network.py \
  --pretrained_model_name_or_path /models/flux1/flux1-dev-fp8.safetensors \
  --clip_l /models/flux1/clip_l.safetensors --t5xxl /models/flux1/t5xxl_fp8_e4m3fn.safetensors --ae /models/flux1/ae.safetensors \
  --dataset_config flux1_lora_dim16_512_fp8_swap16_gc_4070ti_smoke_kura.toml \
  --network_module networks.lora_flux --network_dim 16 --network_alpha 1 --network_train_unet_only \
  --learning_rate 1e-4 --optimizer_type AdamW8bit --mixed_precision bf16 --save_precision bf16 \
  --fp8_base --blocks_to_swap 16 --gradient_checkpointing \
  --cache_latents --cache_latents_to_disk --cache_text_encoder_outputs --cache_text_encoder_outputs_to_disk \
  --timestep_sampling flux_shift --guidance_scale 1.0 --model_prediction_type raw \
  --max_train_steps 1 --seed 42 --output_dir /workspace/outputs --output_name smoke_flux1
