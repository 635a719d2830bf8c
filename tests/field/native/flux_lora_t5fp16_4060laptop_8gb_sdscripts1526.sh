# Field case flux_lora_t5fp16_4060laptop_8gb_sdscripts1526, in sd-scripts' own form: kohya_ss GUI "Flux1" LoRA on an 8 GB RTX 4060
# Laptop GPU (Linux). The pasted GUI JSON is cut after its first part, which gives: latents cached to disk,
# text-encoder outputs cached (its "_to_disk" field is cut off; on here), CLIP-L and ae paths, buckets (no upscale), 1 epoch. T5-XXL was fp16 (fp8
# T5 files were not accepted until 2024-09-06, as the reporter later notes). The rest (model precision, rank,
# optimizer, resolution) is not retrievable and is filled from the sd3 branch README's sample FLUX.1 LoRA command
# of the report's date (flux1-dev with --fp8_base, dim 4, AdamW8bit, U-Net only, SDPA, checkpointing, highvram,
# 1024 px dataset, batch 1). The reporter's own fix (comment out the two lines that move the text encoders to the
# GPU for caching) places the failure at the text-encoder caching, before the training settings matter.
accelerate launch --mixed_precision bf16 --num_cpu_threads_per_process 1 flux_train_network.py \
  --pretrained_model_name_or_path flux1-dev.safetensors --clip_l clip_l.safetensors --t5xxl t5xxl_fp16.safetensors \
  --ae ae.sft --cache_latents --cache_latents_to_disk --save_model_as safetensors --sdpa --persistent_data_loader_workers \
  --max_data_loader_n_workers 2 --seed 42 --gradient_checkpointing --mixed_precision bf16 --save_precision bf16 \
  --network_module networks.lora_flux --network_dim 4 --optimizer_type adamw8bit --learning_rate 1e-4 \
  --network_train_unet_only --cache_text_encoder_outputs --cache_text_encoder_outputs_to_disk --fp8_base \
  --highvram --max_train_epochs 1 --save_every_n_epochs 1 \
  --resolution 1024 --enable_bucket --bucket_no_upscale --bucket_reso_steps 64 --train_batch_size 1 --train_data_dir img \
  --output_dir out --output_name flux-lora-name \
  --timestep_sampling sigmoid --model_prediction_type raw --guidance_scale 1.0 --loss_type l2
