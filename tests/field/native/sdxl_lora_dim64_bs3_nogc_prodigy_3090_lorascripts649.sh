# Field case sdxl_lora_dim64_bs3_nogc_prodigy_3090_lorascripts649, in sd-scripts' own form: lora-scripts
# writes an sdxl_train_network TOML, pasted in the report; these are its values as arguments (no
# --gradient_checkpointing: the TOML sets it false). Sampling: 1024 px, 28 steps, cfg 5 (the prompt file's).
accelerate launch sdxl_train_network.py \
  --pretrained_model_name_or_path sd_xl_base_1.0.safetensors \
  --train_data_dir img --output_dir out \
  --resolution 1024,1024 --enable_bucket --min_bucket_reso 512 --max_bucket_reso 1536 \
  --train_batch_size 3 \
  --network_train_unet_only \
  --optimizer_type Prodigy --learning_rate 1 \
  --network_module networks.lora --network_dim 64 --network_alpha 32 \
  --mixed_precision bf16 --full_bf16 \
  --xformers \
  --cache_latents --cache_latents_to_disk \
  --sample_every_n_epochs 1 --sample_prompts prompts.txt
