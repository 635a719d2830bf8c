# Field case flux_lora_16gbrecipe_1024_4080_sdscripts1374, in sd-scripts' own form: FLUX.1 LoRA on a 16 GB card (RTX 4080) at 1024 px, the resolution that ran out of memory.
# The reporter (sd-scripts PR #1374 thread) first ran "the example command line" and was pointed to the 16 GB
# settings; the settings of this run are not shown. Filled from the sd3 branch README of the report's date
# (2024-08-22): its sample FLUX.1 LoRA command (flux1-dev bf16 with --fp8_base, T5-XXL fp16, SDPA, U-Net-only LoRA
# dim 4, latents and text-encoder outputs cached to disk, checkpointing, highvram, sigmoid timesteps, raw
# prediction, guidance 1.0) with its "16GB VRAM GPUs" optimizer (Adafactor, no relative step). Batch 1 (argparse
# default; the README's example dataset file is named dataset_1024_bs2).
accelerate launch --mixed_precision bf16 --num_cpu_threads_per_process 1 flux_train_network.py \
  --pretrained_model_name_or_path flux1-dev.sft --clip_l clip_l.safetensors --t5xxl t5xxl_fp16.safetensors \
  --ae ae.sft --cache_latents_to_disk --save_model_as safetensors --sdpa --persistent_data_loader_workers \
  --max_data_loader_n_workers 2 --seed 42 --gradient_checkpointing --mixed_precision bf16 --save_precision bf16 \
  --network_module networks.lora_flux --network_dim 4 \
  --optimizer_type adafactor --optimizer_args "relative_step=False" "scale_parameter=False" "warmup_init=False" \
  --learning_rate 1e-4 \
  --network_train_unet_only --cache_text_encoder_outputs --cache_text_encoder_outputs_to_disk --fp8_base \
  --highvram --max_train_epochs 4 --save_every_n_epochs 1 \
  --resolution 1024 --train_batch_size 1 --train_data_dir img \
  --output_dir out --output_name flux-lora-name \
  --timestep_sampling sigmoid --model_prediction_type raw --guidance_scale 1.0 --loss_type l2
