# Field case flux_lora_fluxgym12g_4070s_wsl_fluxgym331, in sd-scripts' own form: the train script the report
# pasted (FluxGym's 12G preset, run in Docker on WSL with a 4070 Super 12GB): flux1-dev.sft (bf16 file) with
# --fp8_base, t5xxl fp16, latents and text-encoder outputs cached to disk, SDPA, checkpointing, bf16, dim 4,
# Adafactor, --split_mode with train_blocks=single (sd-scripts of that date turns split_mode into
# --blocks_to_swap 18), highvram, samples every 10 steps, lr 8e-4, 5 epochs. Cut after --output_dir: the rest
# is FluxGym's generated script (output_name, timestep shift 3.1582, raw prediction, guidance 1.0, l2 loss);
# the dataset.toml is not shown: FluxGym's default 512 px, batch 1.
accelerate launch --mixed_precision bf16 --num_cpu_threads_per_process 1 flux_train_network.py \
  --pretrained_model_name_or_path flux1-dev.sft \
  --clip_l clip_l.safetensors --t5xxl t5xxl_fp16.safetensors --ae ae.sft \
  --cache_latents_to_disk --save_model_as safetensors \
  --sdpa --persistent_data_loader_workers --max_data_loader_n_workers 3 --seed 42 \
  --gradient_checkpointing --mixed_precision bf16 --save_precision bf16 \
  --network_module networks.lora_flux --network_dim 4 \
  --optimizer_type adafactor --optimizer_args "relative_step=False" "scale_parameter=False" "warmup_init=False" \
  --split_mode --network_args "train_blocks=single" \
  --lr_scheduler constant_with_warmup --max_grad_norm 0.0 \
  --sample_prompts sample_prompts.txt --sample_every_n_steps 10 \
  --learning_rate 8e-4 \
  --cache_text_encoder_outputs --cache_text_encoder_outputs_to_disk \
  --fp8_base --highvram \
  --max_train_epochs 5 --save_every_n_epochs 2 \
  --resolution 512 --train_batch_size 1 --train_data_dir img --output_dir out --output_name nb \
  --timestep_sampling shift --discrete_flow_shift 3.1582 --model_prediction_type raw --guidance_scale 1.0 --loss_type l2
