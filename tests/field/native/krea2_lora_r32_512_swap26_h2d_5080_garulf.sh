# Field case krea2_lora_r32_512_swap26_h2d_5080_garulf, in musubi-tuner's own form: the training command that the
# report's driver script writes into its .bat (Garulf/dotfiles, home/.claude/skills/character-lora-training/
# scripts/train_lora.sh at commit c5e0afa5, 2026-07-17), run on an RTX 5080 16 GB under Windows. Copied flag for
# flag; only paths are shortened and the character slug replaced. Krea-2-Raw bf16 DiT loaded with --fp8_base
# --fp8_scaled, 26 of the DiT's 28 blocks swapped with the H2D-only ring (ring size 1), checkpointing with CPU
# offload, split attention, SDPA, LoRA dim/alpha 32, AdamW8bit lr 1e-4, 4000 steps (the script's default),
# checkpoints every 500 steps plus saved state. Text-encoder outputs and latents are pre-cached by the same script
# (krea2_cache_*), so no text encoder is loaded for training and no samples are generated.
# Dataset (krea2_lora_r32_512_swap26_h2d_5080_garulf.toml): the script's own stage step, 512x512, batch 1.
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision bf16 src/musubi_tuner/krea2_train_network.py \
  --dit raw.safetensors --vae qwen_image_vae.safetensors \
  --dataset_config krea2_lora_r32_512_swap26_h2d_5080_garulf.toml \
  --sdpa --mixed_precision bf16 \
  --timestep_sampling shift --weighting_scheme none --discrete_flow_shift 2.5 \
  --optimizer_type adamw8bit --learning_rate 1e-4 \
  --gradient_checkpointing --gradient_checkpointing_cpu_offload \
  --max_data_loader_n_workers 2 --persistent_data_loader_workers \
  --network_module networks.lora_krea2 --network_dim 32 --network_alpha 32 \
  --fp8_base --fp8_scaled \
  --blocks_to_swap 26 --block_swap_h2d_only --block_swap_ring_size 1 \
  --split_attn \
  --max_train_steps 4000 --save_every_n_steps 500 --save_state --save_last_n_steps_state 500 \
  --seed 42 --output_dir outputs/character --output_name character_rank32
