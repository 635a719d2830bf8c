# FluxGym app.py gen_sh() as of cocktailpeanut/fluxgym (trainers.md §2): shared preset settings, dataset.toml
# resolution 512 (FluxGym's default) and batch_size 1. Calibration case fluxgym_16g_preset_on_12gb_oom.
accelerate launch --mixed_precision bf16 --num_cpu_threads_per_process 1 sd-scripts/flux_train_network.py \
  --pretrained_model_name_or_path flux1-dev.sft --clip_l clip_l.safetensors --t5xxl t5xxl_fp16.safetensors --ae ae.sft \
  --cache_latents_to_disk --save_model_as safetensors --sdpa --persistent_data_loader_workers --max_data_loader_n_workers 2 \
  --seed 42 --gradient_checkpointing --mixed_precision bf16 --save_precision bf16 --network_module networks.lora_flux \
  --network_dim 4 --learning_rate 8e-4 --cache_text_encoder_outputs --cache_text_encoder_outputs_to_disk --fp8_base --highvram \
  --max_train_epochs 16 --timestep_sampling shift --discrete_flow_shift 3.1582 --model_prediction_type raw --guidance_scale 1 \
  --loss_type l2 --resolution 512,512 --train_batch_size 1 \
  --optimizer_type adafactor --optimizer_args "relative_step=False" "scale_parameter=False" "warmup_init=False" --lr_scheduler constant_with_warmup --max_grad_norm 0.0
