# Unseen case sdscripts_sd35l_lora_16gb (vram-measurements.md row 59).
# kohya-ss/sd-scripts README.md@2cb7a6db §"SD3 LoRA training": "Sample command is below. It will work with 16GB VRAM GPUs
# (SD3.5L)." The command is copied as published.
# Filled: --dataset_config dataset_1024_bs2.toml is written as --train_data_dir/--resolution 1024,1024/--train_batch_size 2
# (what the file name says).
accelerate launch --mixed_precision bf16 --num_cpu_threads_per_process 1 sd3_train_network.py \
  --pretrained_model_name_or_path path/to/sd3.5_large.safetensors --clip_l sd3/clip_l.safetensors --clip_g sd3/clip_g.safetensors --t5xxl sd3/t5xxl_fp16.safetensors \
  --cache_latents_to_disk --save_model_as safetensors --sdpa --persistent_data_loader_workers \
  --max_data_loader_n_workers 2 --seed 42 --gradient_checkpointing --mixed_precision bf16 --save_precision bf16 \
  --network_module networks.lora_sd3 --network_dim 4 --network_train_unet_only \
  --optimizer_type adamw8bit --learning_rate 1e-4 \
  --cache_text_encoder_outputs --cache_text_encoder_outputs_to_disk --fp8_base \
  --highvram --max_train_epochs 4 --save_every_n_epochs 1 \
  --train_data_dir path/to/train_data --resolution 1024,1024 --train_batch_size 2 \
  --output_dir path/to/output/dir --output_name sd3-lora-name
