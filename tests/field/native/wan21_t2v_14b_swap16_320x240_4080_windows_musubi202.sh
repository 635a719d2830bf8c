# Field case wan21_t2v_14b_swap16_320x240_4080_windows_musubi202, in musubi-tuner's own form: the job of
# wan21_t2v_14b_swap16_320x240_4080_wsl_musubi202, which the reporter then ran on Windows "with the same dataset and
# parameters" and which worked there: Wan 2.1 T2V 14B fp8 with --fp8_base, --blocks_to_swap 16, SDPA, AdamW8bit,
# checkpointing, LoRA dim 32 / alpha 32 (LoRA+ ratio 4), fp8 T5. Dataset (wan21_t2v_14b_swap16_320x240_4080_windows_musubi202.toml) as in the
# WSL case: three video datasets at 320x240, batch 1; frame counts not shown (the documentation's example
# [1, 25, 45], head extraction).
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision bf16 wan_train_network.py --task t2v-14B \
  --dit wan2.1_t2v_14B_fp8_e4m3fn.safetensors \
  --dataset_config wan21_t2v_14b_swap16_320x240_4080_windows_musubi202.toml \
  --sdpa --mixed_precision bf16 --blocks_to_swap 16 --optimizer_type adamw8bit \
  --learning_rate 1e-4 --fp8_t5 --fp8_base --gradient_checkpointing \
  --max_data_loader_n_workers 2 --persistent_data_loader_workers --network_module networks.lora_wan \
  --network_dim 32 --network_alpha 32 --timestep_sampling shift --discrete_flow_shift 3.0 \
  --max_train_steps 2000 --save_every_n_steps 100 --seed 42 --network_args loraplus_lr_ratio=4 \
  --output_dir out --output_name s1llywlk
