# Unseen case musubi_wan21_14b_720x1280_images_24gb (vram-measurements.md row 87).
# kohya-ss/musubi-tuner docs/wan.md@6ef088f (2025-03-07, unchanged @30c658c): "fp8 support and memory reduction by block
# swap: ... training with 720x1280 images with 24GB VRAM". Read as the 14B model (fp8 + block swap are what the 14B needs;
# the doc's example uses t2v-1.3B).
# Command: the doc's training example with --task t2v-14B and a 14B DiT (wan2.1_t2v_14B_bf16.safetensors, as named on the
# Comfy-Org repackaged page the doc links), --fp8_base (in the example) and --blocks_to_swap.
# Filled: the swap count is not published; filled with the 14B maximum, 39 of 40 (the assert in wan/modules/model.py),
# so that the label holds whatever count kohya used (more swap never needs more VRAM). Script path is today's
# src/musubi_tuner/ layout (the 2025-03 doc ran wan_train_network.py from the repo root).
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision bf16 src/musubi_tuner/wan_train_network.py \
    --task t2v-14B \
    --dit wan2.1_t2v_14B_bf16.safetensors \
    --dataset_config musubi_wan21_720x1280_images_dataset.toml --sdpa --mixed_precision bf16 --fp8_base \
    --optimizer_type adamw8bit --learning_rate 2e-4 --gradient_checkpointing \
    --max_data_loader_n_workers 2 --persistent_data_loader_workers \
    --network_module networks.lora_wan --network_dim 32 \
    --timestep_sampling shift --discrete_flow_shift 3.0 \
    --blocks_to_swap 39 \
    --max_train_epochs 16 --save_every_n_epochs 1 --seed 42 \
    --output_dir path/to/output_dir --output_name name-of-lora
