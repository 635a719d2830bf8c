# musubi-tuner GUI Qwen-Image VRAM preset (trainers.md §3 'musubi GUI VRAM presets'), 24 GB: swap 10
# on the docs/qwen_image.md training example with --fp8_base --fp8_scaled (case qwen_image_gui_24gb).
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision bf16 src/musubi_tuner/qwen_image_train_network.py \
    --dit qwen_image_bf16.safetensors --vae qwen_image_vae.safetensors --text_encoder qwen_2.5_vl_7b.safetensors \
    --dataset_config qwen_image_1024_dataset.toml --xformers --mixed_precision bf16 \
    --timestep_sampling shift --weighting_scheme none --discrete_flow_shift 2.2 \
    --optimizer_type adamw8bit --learning_rate 5e-5 --gradient_checkpointing \
    --network_module networks.lora_qwen_image --network_dim 16 --max_train_epochs 16 --fp8_base --fp8_scaled --blocks_to_swap 10
