# Field case sd15_lora_unetonly_fp16_8bitadam_3050laptop_b32abdd_sdscripts197 (kohya sd-scripts train_network.py @ b32abdd3), batch 2026-12-08b.
# Source: https://github.com/kohya-ss/sd-scripts/issues/197 (description by cy1zu, 2023-02-16).
# Outcome: fits on an RTX 3050 Laptop 4GB ("I can train lora model in b32abdd version ... I can still training on b32abdd").
# Grade C: only --xformers --shuffle_caption --use_8bit_adam --network_train_unet_only --mixed_precision=fp16 are reported.
# Filled (sd-scripts b32abdd3, 2023-02-11): resolution 512 (no default; SD 1.x size), networks.lora dim 4 / alpha 1 (defaults),
#   batch 1, no gradient checkpointing, no latent caching, max_data_loader_n_workers 8; SD 1.x checkpoint; paths are placeholders.
accelerate launch --num_cpu_threads_per_process 1 train_network.py \
  --pretrained_model_name_or_path="/models/sd15.safetensors" \
  --train_data_dir="/data/train/img" \
  --resolution=512 \
  --output_dir="/output" \
  --save_model_as=safetensors \
  --network_module=networks.lora \
  --network_train_unet_only \
  --xformers --shuffle_caption --use_8bit_adam \
  --mixed_precision="fp16" --save_precision="fp16" \
  --train_batch_size=1 --max_train_epochs=10
