# Field case framepack_1f_lora_r32_bs16_512x768_swap20_h100_xhiroga, in musubi-tuner's own form: the config.toml and dataset.toml of
# xhiroga's article "musubi-tunerによるFramePack学習の私的ベストプラクティス集" (xhiroga/zenn-content, articles/framepack-lora.md; the
# config "as of 2025-07" in the form printed from 4f0c4c9f of 2025-08-10 to 330dca20 of 2026-01-03 - the dataset block and the memory
# settings (swap 20, fp8 LLM, one_frame, batch 16) are already in the first version of 2025-07-19), its config keys written as flags
# (the article runs them through --config_file; --image_encoder is passed on the command line as in its Makefile).
# FramePack I2V (HunyuanVideo-based DiT, loaded bf16: the config has no fp8_base) in one-frame mode (kisekaeichi-style: two control
# images, fp_1f_clean_indices [0, 10], target index 5, no post latent), 20 blocks swapped, split attention, img_in/txt_in offloading,
# gradient checkpointing, SDPA, fp8 LLM text encoder (outputs cached beforehand), LoRA dim 32 / alpha 16, adamw8bit lr 1e-3, shift 6.0,
# a sample at first and every 100 steps (512x768 one-frame images), save + state every 100 steps, wandb logging.
# Dataset (.toml beside): 512x768 buckets, batch 16 ("# batch_size = 16 # H100 @ 80~96GB"), 10 repeats.
# Card: H100 on RunPod (80 GB; the comment says "80~96GB"). musubi-tuner from git at the time (the 2025-08 versions of the article install
# it from xhiroga's fork of kohya-ss/musubi-tuner, the 2026-01 version from upstream); upstream 8b8e9945 (2025-07-16) read for defaults.
# Outcome: fits - the run setting in use for the H100 (batch 16 on H100, "H100を$2.5/Hourで8時間借りて1,000steps程度学習できる").
accelerate launch --num_processes 1 --dynamo_backend=no --mixed_precision bf16 -m musubi_tuner.fpack_train_network \
  --dit FramePackI2V_HY/diffusion_pytorch_model-00001-of-00003.safetensors \
  --vae vae/diffusion_pytorch_model.safetensors \
  --text_encoder1 text_encoder/model-00001-of-00004.safetensors \
  --text_encoder2 text_encoder_2/model.safetensors \
  --image_encoder image_encoder/model.safetensors \
  --dataset_config framepack_1f_lora_r32_bs16_512x768_swap20_h100_xhiroga.toml \
  --blocks_to_swap 20 --split_attn --img_in_txt_in_offloading \
  --seed 42 --mixed_precision bf16 --sdpa \
  --network_module networks.lora_framepack --network_dim 32 --network_alpha 16 \
  --optimizer_type adamw8bit --learning_rate 1e-3 \
  --gradient_checkpointing \
  --max_data_loader_n_workers 1 --persistent_data_loader_workers \
  --max_train_steps 5000 \
  --timestep_sampling shift --discrete_flow_shift 6.0 \
  --fp8_llm --vae_chunk_size 32 --vae_spatial_tile_sample_min_size 128 --one_frame \
  --save_every_n_steps 100 --sample_at_first --sample_every_n_steps 100 --sample_prompts prompts.txt \
  --save_state --save_state_on_train_end \
  --output_dir my-framepack-models --output_name my-framepack-project-v8 \
  --log_with wandb --log_tracker_name my-framepack-project --log_config
