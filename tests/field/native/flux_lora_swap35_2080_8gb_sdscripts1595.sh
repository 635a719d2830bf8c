# Field case flux_lora_swap35_2080_8gb_sdscripts1595, in sd-scripts' own form: FLUX.1 LoRA on an 8 GB RTX 2080 with what the report
# lists: bf16 mixed precision with --fp8_base, the largest block swap (--blocks_to_swap 35, FLUX.1's maximum in
# sd-scripts), gradient checkpointing, latents and text-encoder outputs cached, batch 1. The rest is the README's
# sample FLUX.1 LoRA command of that date (flux1-dev bf16, t5xxl fp16, SDPA, dim 4, U-Net only, AdamW8bit lr 1e-4,
# highvram, shift 3.1582, raw prediction, guidance 1.0; its dataset is 1024 px, batch given as 1 here).
accelerate launch --mixed_precision bf16 --num_cpu_threads_per_process 1 flux_train_network.py \
  --pretrained_model_name_or_path flux1-dev.safetensors --clip_l clip_l.safetensors --t5xxl t5xxl_fp16.safetensors \
  --ae ae.safetensors --cache_latents_to_disk --save_model_as safetensors --sdpa --persistent_data_loader_workers \
  --max_data_loader_n_workers 2 --seed 42 --gradient_checkpointing --mixed_precision bf16 --save_precision bf16 \
  --network_module networks.lora_flux --network_dim 4 --network_train_unet_only \
  --optimizer_type adamw8bit --learning_rate 1e-4 \
  --cache_text_encoder_outputs --cache_text_encoder_outputs_to_disk --fp8_base \
  --blocks_to_swap 35 \
  --highvram --max_train_epochs 4 --save_every_n_epochs 1 \
  --resolution 1024 --train_batch_size 1 --train_data_dir img \
  --output_dir out --output_name flux-lora-name \
  --timestep_sampling shift --discrete_flow_shift 3.1582 --model_prediction_type raw --guidance_scale 1.0
