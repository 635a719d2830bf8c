# Field case krea2_lora_r16_768_bs2_fp8_gc_a5000_kura (musubi-tuner), rebuilt from batch 18's entry: Krea 2 on RTX A5000 24GB (RunPod), outcome fits.
# Source: https://github.com/nomadoor/Kura/blob/9a1f5a8141678af09f8d7e173b3b4987d7c2f7dd/.claude/skills/training-parameter-planning/knowledge/krea2.md
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision bf16 src/musubi_tuner/krea2_train_network.py \
  --dit /models/krea2/raw.safetensors --vae /models/qwen_image_vae.safetensors \
  --dataset_config krea2_lora_r16_768_bs2_fp8_gc_a5000_kura.toml \
  --sdpa --mixed_precision bf16 --timestep_sampling krea2_shift --weighting_scheme none \
  --optimizer_type adamw8bit --learning_rate 7e-5 \
  --max_data_loader_n_workers 2 --persistent_data_loader_workers \
  --network_module networks.lora_krea2 --network_dim 16 --network_alpha 16 \
  --max_train_steps 1600 --save_every_n_steps 1600 --save_precision bf16 --seed 42 \
  --output_dir /workspace/outputs --output_name myakumyaku_krea2 \
  --gradient_checkpointing --fp8_base --fp8_scaled
