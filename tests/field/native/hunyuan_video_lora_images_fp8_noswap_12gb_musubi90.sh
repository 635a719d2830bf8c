# Field case hunyuan_video_lora_images_fp8_noswap_12gb_musubi90, in musubi-tuner's own form: the hv_train_network.py command the
# report typed from a photo (typos corrected: "--formers" = --xformers, "adamwsbit" = adamw8bit): HunyuanVideo
# 720p DiT with --fp8_base, xFormers, AdamW8bit lr 2e-4, checkpointing, LoRA dim 32, shift 7.0, 16 epochs, save
# every 5. This is the run that went OOM, i.e. before the reporter added --blocks_to_swap (32/36), whose runs
# failed with a separate fp8 "fill_cpu" error and are not made cases. --fp8_llm is an option for the text encoder
# (caching/sampling) and is dropped here. Dataset (hunyuan_video_lora_images_fp8_noswap_12gb_musubi90.toml): "photos", not shown:
# the dataset documentation's example image dataset of that date (960x544, batch 1).
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision bf16 hv_train_network.py \
  --dit models/ckpts/hunyuan-video-t2v-720p/transformers/mp_rank_00_model_states.pt \
  --dataset_config hunyuan_video_lora_images_fp8_noswap_12gb_musubi90.toml \
  --xformers --mixed_precision bf16 --fp8_base \
  --optimizer_type adamw8bit --learning_rate 2e-4 --gradient_checkpointing \
  --max_data_loader_n_workers 2 --persistent_data_loader_workers \
  --network_module networks.lora --network_dim 32 \
  --timestep_sampling shift --discrete_flow_shift 7.0 \
  --max_train_epochs 16 --save_every_n_epochs 5 --seed 42 \
  --output_dir output --output_name output_lora
