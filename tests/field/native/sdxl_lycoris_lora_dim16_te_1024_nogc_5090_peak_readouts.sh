# Field case sdxl_lycoris_lora_dim16_te_1024_nogc_5090_peak_readouts, in sd-scripts' own form: wave-4 "Run 3" of the training-knowledge KB
# (mcp-tool-shop-org/readouts at 6fc304ec, training-knowledge/waves/wave-04-sdxl-measurement/research-raw.json): SDXL base 1.0 LoRA through
# LyCORIS (network_module lycoris.kohya, algo=lora, lycoris-lora 3.4.0), dim 16 / alpha 16, text encoders trained, AdamW lr 1e-4, cosine with
# 30 warmup steps, 600 steps, bf16, SDPA, latents cached, NO gradient checkpointing (the first attempt); batch 1 at a fixed 1024, the 16-image x 10 cyanotype folder
# of the recipe #166 command, which supplies the unstated flags.
# RTX 5090 32 GB, native Windows, sd-scripts torch 2.12.0+cu130 (main 48d368fa read for defaults).
# Outcome: peak 27.7 GB (1 Hz nvidia-smi; MiB/1024 as GB) - 'peaks 27.7 GB WITHOUT gradient_checkpointing (vs native sd-scripts LoRA's 19.4 GB)'.
python sdxl_train_network.py --pretrained_model_name_or_path sd_xl_base_1.0.safetensors \
  --train_data_dir dataset_stdstyl --output_dir out --output_name stdstyl_lycoris_lora \
  --network_module lycoris.kohya --network_dim 16 --network_alpha 16 --network_args "algo=lora" \
  --learning_rate 1e-4 --optimizer_type AdamW \
  --lr_scheduler cosine --lr_warmup_steps 30 --max_train_steps 600 \
  --mixed_precision bf16 --save_precision bf16 --sdpa --cache_latents \
  --resolution 1024,1024 --train_batch_size 1 --caption_extension .txt \
  --save_model_as safetensors --seed 42 --max_data_loader_n_workers 0
