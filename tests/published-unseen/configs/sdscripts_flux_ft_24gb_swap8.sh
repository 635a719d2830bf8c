# Unseen case sdscripts_flux_ft_24gb_swap8 (vram-measurements.md row 22).
# kohya-ss/sd-scripts README.md@2cb7a6db §"FLUX.1 fine-tuning": "Sample command for FLUX.1 fine-tuning is below.
# This will work with 24GB VRAM GPUs, and 64GB main memory is recommended." The command is copied as published.
# Filled: --dataset_config dataset_1024_bs1.toml is written as --train_data_dir/--resolution 1024,1024/--train_batch_size 1
# (what the file name says); the duplicate --sdpa of the published command is kept once.
accelerate launch --mixed_precision bf16 --num_cpu_threads_per_process 1 flux_train.py \
  --pretrained_model_name_or_path flux1-dev.safetensors --clip_l clip_l.safetensors --t5xxl t5xxl_fp16.safetensors --ae ae_dev.safetensors \
  --save_model_as safetensors --sdpa --persistent_data_loader_workers --max_data_loader_n_workers 2 \
  --seed 42 --gradient_checkpointing --mixed_precision bf16 --save_precision bf16 \
  --train_data_dir path/to/train_data --resolution 1024,1024 --train_batch_size 1 \
  --output_dir path/to/output/dir --output_name output-name \
  --learning_rate 5e-5 --max_train_epochs 4 --highvram --cache_text_encoder_outputs_to_disk --cache_latents_to_disk --save_every_n_epochs 1 \
  --optimizer_type adafactor --optimizer_args "relative_step=False" "scale_parameter=False" "warmup_init=False" \
  --lr_scheduler constant_with_warmup --max_grad_norm 0.0 \
  --timestep_sampling shift --discrete_flow_shift 3.1582 --model_prediction_type raw --guidance_scale 1.0 \
  --fused_backward_pass --blocks_to_swap 8 --full_bf16
