# Field case flux_lora_fluxgym20g_5090_peak17_fluxgym473, in sd-scripts' own form: FluxGym's generated script for its
# 20G preset ("The 20GB option only uses 17GB of VRAM", cocktailpeanut/fluxgym#473, 2025-10-23, title "RTX 5090 VRAM"),
# from app.py's gen_sh at the last FluxGym commit before the report (47ba20dd, 2025-09-19): AdamW8bit, no split mode,
# fp8 base, highvram, checkpointing, SDPA, latents and text-encoder outputs cached to disk, T5-XXL fp16. Nothing
# else is stated, so FluxGym's UI defaults of that commit: base model flux-dev (flux1-dev.sft), 512 px, LoRA dim 4,
# lr 8e-4, 16 epochs, save every 4, 2 workers, seed 42, shift timesteps, guidance 1.0, no sample prompts; its
# dataset.toml has batch 1 and 10 repeats.
accelerate launch --mixed_precision bf16 --num_cpu_threads_per_process 1 flux_train_network.py \
  --pretrained_model_name_or_path flux1-dev.sft \
  --clip_l clip_l.safetensors --t5xxl t5xxl_fp16.safetensors --ae ae.sft \
  --cache_latents_to_disk --save_model_as safetensors \
  --sdpa --persistent_data_loader_workers --max_data_loader_n_workers 2 --seed 42 \
  --gradient_checkpointing --mixed_precision bf16 --save_precision bf16 \
  --network_module networks.lora_flux --network_dim 4 \
  --optimizer_type adamw8bit \
  --learning_rate 8e-4 \
  --cache_text_encoder_outputs --cache_text_encoder_outputs_to_disk \
  --fp8_base --highvram \
  --max_train_epochs 16 --save_every_n_epochs 4 \
  --resolution 512 --train_batch_size 1 --train_data_dir img --output_dir out --output_name lora \
  --timestep_sampling shift --discrete_flow_shift 3.1582 --model_prediction_type raw --guidance_scale 1.0 --loss_type l2
