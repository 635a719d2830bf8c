# sd-scripts docs/flux_train_network.md §4 basic command, with --fp8_base (§6.1: the table assumes it);
# the dataset at the doc's resolution = [1024, 1024] (§6.7). Calibration case sdscripts_flux_16gb_batch1_swap18.
accelerate launch --num_cpu_threads_per_process 1 flux_train_network.py \
  --pretrained_model_name_or_path flux1-dev.safetensors --clip_l clip_l.safetensors --t5xxl t5xxl_fp16.safetensors --ae ae.safetensors \
  --network_module=networks.lora_flux --network_dim=16 --network_alpha=1 --learning_rate=1e-4 \
  --sdpa --mixed_precision=fp16 --gradient_checkpointing --guidance_scale=1.0 --timestep_sampling=flux_shift \
  --model_prediction_type=raw --cache_text_encoder_outputs --cache_latents --fp8_base --resolution 1024,1024 \
  --optimizer_type="AdamW8bit" --train_batch_size 1 --blocks_to_swap=18
