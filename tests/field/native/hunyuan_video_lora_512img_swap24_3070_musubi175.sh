# Field case hunyuan_video_lora_512img_swap24_3070_musubi175, in musubi-tuner's own form: HunyuanVideo LoRA on 20 images at 512x512 with
# 24 blocks swapped on an 8 GB RTX 3070 (stated; the text encoder was cached on another card). The rest is the
# README's sample command of that date (hv_train_network.py: --fp8_base, SDPA, AdamW8bit lr 2e-4,
# checkpointing, LoRA dim 32, shift 7.0); dataset hunyuan_video_lora_512img_swap24_3070_musubi175.toml (512x512 images, batch 1).
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision bf16 hv_train_network.py \
  --dit mp_rank_00_model_states.pt \
  --dataset_config hunyuan_video_lora_512img_swap24_3070_musubi175.toml --sdpa --mixed_precision bf16 --fp8_base \
  --optimizer_type adamw8bit --learning_rate 2e-4 --gradient_checkpointing \
  --blocks_to_swap 24 \
  --max_data_loader_n_workers 2 --persistent_data_loader_workers \
  --network_module networks.lora --network_dim 32 \
  --timestep_sampling shift --discrete_flow_shift 7.0 \
  --max_train_epochs 16 --save_every_n_epochs 1 --seed 42 \
  --output_dir out --output_name hv-lora
