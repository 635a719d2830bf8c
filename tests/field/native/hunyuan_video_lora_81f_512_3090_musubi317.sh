# Field case hunyuan_video_lora_81f_512_3090_musubi317, in musubi-tuner's own form: the training command the report pasted
# (hv_train_network.py, HunyuanVideo 720p DiT with --fp8_base, SDPA, AdamW8bit, checkpointing, LoRA dim 32, no
# block swap; samples at first and every step, with the text encoders and VAE tiling given for sampling).
# Dataset (hunyuan_video_lora_81f_512_3090_musubi317.toml): the pasted training.toml is cut after "resolution = [512"; the rest is filled:
# 512x512, one video clip of 81 frames (stated), head extraction, batch 1. Text-encoder outputs and latents are
# cached by separate runs, as musubi requires.
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision bf16 hv_train_network.py \
  --dit mp_rank_00_model_states.pt \
  --dataset_config hunyuan_video_lora_81f_512_3090_musubi317.toml \
  --sdpa --mixed_precision bf16 --fp8_base \
  --optimizer_type adamw8bit --learning_rate 1e-3 --gradient_checkpointing \
  --max_data_loader_n_workers 2 --persistent_data_loader_workers \
  --network_module networks.lora --network_dim 32 \
  --timestep_sampling sigmoid --discrete_flow_shift 2.0 \
  --max_train_epochs 999 --save_every_n_epochs 1 --seed 42 \
  --output_dir out --output_name XORFUK1 \
  --vae pytorch_model.pt --vae_chunk_size 32 --vae_spatial_tile_sample_min_size 128 \
  --text_encoder1 llava_llama3_fp16.safetensors --text_encoder2 clip_l.safetensors \
  --sample_prompts prompts.txt --sample_every_n_steps 1 --sample_at_first
