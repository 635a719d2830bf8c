# Field case anima_lora_r16a8_768_bf16_gc_4070ti_kura (sd-scripts), rebuilt from batch 18's entry: Anima on RTX 4070 Ti 12GB (local Docker), outcome fits.
# Source: https://github.com/nomadoor/Kura/blob/bc01bc5af7aa03c2afd21b3d8af04c6838459f31/.claude/skills/training-parameter-planning/knowledge/anima.md
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision bf16 anima_train_network.py \
  --pretrained_model_name_or_path /models/anima/anima.safetensors \
  --qwen3 /models/anima/qwen3_0.6b.safetensors --vae /models/anima/qwen_image_vae.safetensors \
  --dataset_config anima_lora_r16a8_768_bf16_gc_4070ti_kura.toml \
  --network_module networks.lora_anima --network_dim 16 --network_alpha 8 --network_train_unet_only \
  --learning_rate 7e-5 --lr_scheduler constant --optimizer_type AdamW8bit \
  --mixed_precision bf16 --save_precision bf16 --gradient_checkpointing \
  --cache_latents --cache_latents_to_disk --cache_text_encoder_outputs --cache_text_encoder_outputs_to_disk \
  --timestep_sampling sigmoid \
  --max_train_steps 2000 --save_every_n_steps 100 --seed 42 \
  --output_dir /workspace/outputs --output_name vivi_anima
