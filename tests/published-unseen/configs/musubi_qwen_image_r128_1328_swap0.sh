# Unseen case musubi_qwen_image_r128_1328_swap0 (vram-measurements.md row 68, second figure).
# kohya-ss/musubi-tuner#715, FurkanGozukara, 2025-11-07: same settings as the 7-block case (FP8, LoRA rank 128, Adafactor,
# 1328x1328): "For 0 block it needs like 35 GB VRAM" (more than his 32 GB card, hence the 7-block swap).
# Filled (not stated in the thread): the command of docs/qwen_image.md@571569d (2025-10-26, the doc of the issue date):
# --sdpa, bf16 mixed precision, --gradient_checkpointing, shift 2.2, LoRA module; "FP8" read as --fp8_base --fp8_scaled
# (the doc's fp8 options for the DiT); Adafactor args relative_step/scale_parameter/warmup_init False with lr 1e-4;
# batch 1 (dataset TOML).
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision bf16 src/musubi_tuner/qwen_image_train_network.py \
    --dit qwen_image_bf16.safetensors --vae qwen_image_vae.safetensors --text_encoder qwen_2.5_vl_7b.safetensors \
    --dataset_config musubi_qwen_image_1328_dataset.toml \
    --sdpa --mixed_precision bf16 \
    --timestep_sampling shift --weighting_scheme none --discrete_flow_shift 2.2 \
    --optimizer_type adafactor --optimizer_args "relative_step=False" "scale_parameter=False" "warmup_init=False" \
    --learning_rate 1e-4 --gradient_checkpointing \
    --max_data_loader_n_workers 2 --persistent_data_loader_workers \
    --network_module networks.lora_qwen_image --network_dim 128 \
    --fp8_base --fp8_scaled \
    --max_train_epochs 16 --save_every_n_epochs 1 --seed 42 \
    --output_dir path/to/output_dir --output_name name-of-lora
