# Field case flux_lora_fluxgym12g_12gb_fluxgym2, in sd-scripts' own form: FluxGym's generated script for its 12G preset (the thread
# asks what a 12 GB GPU needs; the reporter trained "with this tool on my 12 GB card ... without needing to change
# the model"), app.py's gen_sh of the report's date (commit fc54484, 2024-09-11): Adafactor, --split_mode with
# train_blocks=single, fp8 base, highvram, checkpointing, SDPA, latents and text-encoder outputs cached to disk,
# T5-XXL fp16. The preset is not named in the comment (12G assumed, the thread's subject). FluxGym's UI defaults
# otherwise (flux-dev = flux1-dev.sft; the 1024x1024 source pictures are resized to the default 512 px; dim 4,
# lr 8e-4, 16 epochs, save every 4, 2 workers; batch 1).
accelerate launch --mixed_precision bf16 --num_cpu_threads_per_process 1 flux_train_network.py \
  --pretrained_model_name_or_path flux1-dev.sft \
  --clip_l clip_l.safetensors --t5xxl t5xxl_fp16.safetensors --ae ae.sft \
  --cache_latents_to_disk --save_model_as safetensors \
  --sdpa --persistent_data_loader_workers --max_data_loader_n_workers 2 --seed 42 \
  --gradient_checkpointing --mixed_precision bf16 --save_precision bf16 \
  --network_module networks.lora_flux --network_dim 4 \
  --optimizer_type adafactor --optimizer_args "relative_step=False" "scale_parameter=False" "warmup_init=False" \
  --split_mode --network_args "train_blocks=single" \
  --lr_scheduler constant_with_warmup --max_grad_norm 0.0 \
  --learning_rate 8e-4 \
  --cache_text_encoder_outputs --cache_text_encoder_outputs_to_disk \
  --fp8_base --highvram \
  --max_train_epochs 16 --save_every_n_epochs 4 \
  --resolution 512 --train_batch_size 1 --train_data_dir img --output_dir out --output_name lora \
  --timestep_sampling shift --discrete_flow_shift 3.1582 --model_prediction_type raw --guidance_scale 1.0 --loss_type l2
