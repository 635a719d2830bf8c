# Field case flux_lora_splitmode_t5fp8_512_4060laptop_sdscripts1595, in sd-scripts' own form: FLUX.1 LoRA on 8 GB (the reporter's
# RTX 4060 Laptop GPU, per their own issue #1526) with what the comment states: --split_mode (with the
# train_blocks=single it requires) and an fp8 T5-XXL file (t5xxl_fp8_e4m3fn, accepted with --fp8_base since
# 2024-09-06), 512x512 images. The rest is the sd3 branch README of that date (2024-09-11): its sample FLUX.1 LoRA
# command (flux1-dev with --fp8_base, dim 4, SDPA, checkpointing, latents and text-encoder outputs cached to disk,
# highvram, shift 3.1582, raw prediction, guidance 1.0) with its "12GB VRAM GPUs" settings (Adafactor, split mode,
# train_blocks=single, constant_with_warmup, max_grad_norm 0). Batch 1.
accelerate launch --mixed_precision bf16 --num_cpu_threads_per_process 1 flux_train_network.py \
  --pretrained_model_name_or_path flux1-dev.safetensors --clip_l clip_l.safetensors --t5xxl t5xxl_fp8_e4m3fn.safetensors \
  --ae ae.safetensors --cache_latents_to_disk --save_model_as safetensors --sdpa --persistent_data_loader_workers \
  --max_data_loader_n_workers 2 --seed 42 --gradient_checkpointing --mixed_precision bf16 --save_precision bf16 \
  --network_module networks.lora_flux --network_dim 4 \
  --optimizer_type adafactor --optimizer_args "relative_step=False" "scale_parameter=False" "warmup_init=False" \
  --split_mode --network_args "train_blocks=single" --lr_scheduler constant_with_warmup --max_grad_norm 0.0 \
  --learning_rate 1e-4 \
  --cache_text_encoder_outputs --cache_text_encoder_outputs_to_disk --fp8_base \
  --highvram --max_train_epochs 4 --save_every_n_epochs 1 \
  --resolution 512 --train_batch_size 1 --train_data_dir img \
  --output_dir out --output_name flux-lora-name \
  --timestep_sampling shift --discrete_flow_shift 3.1582 --model_prediction_type raw --guidance_scale 1.0
