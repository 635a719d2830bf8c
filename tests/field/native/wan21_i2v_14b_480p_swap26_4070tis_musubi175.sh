# Field case wan21_i2v_14b_480p_swap26_4070tis_musubi175, in musubi-tuner's own form: Wan 2.1 I2V 14B
# (480P) LoRA with 26 blocks swapped (stated), fp8 base and AdamW8bit (the same comment's advice).
# Not stated: the dataset (wan21_i2v_14b_480p_swap26_4070tis_musubi175.toml: 832×480, 41 frames, as the
# mapping's frame count), dim 32, checkpointing, SDPA; text-encoder outputs are cached by a separate run.
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision bf16 wan_train_network.py \
  --task i2v-14B \
  --dit wan2.1_i2v_480p_14B_bf16.safetensors \
  --dataset_config wan21_i2v_14b_480p_swap26_4070tis_musubi175.toml \
  --sdpa --mixed_precision bf16 --fp8_base \
  --optimizer_type adamw8bit --learning_rate 2e-4 --gradient_checkpointing \
  --blocks_to_swap 26 \
  --network_module networks.lora_wan --network_dim 32 \
  --timestep_sampling shift --discrete_flow_shift 3.0 \
  --max_train_epochs 16 --save_every_n_epochs 1 --seed 42 \
  --output_dir out --output_name wan21-lora
