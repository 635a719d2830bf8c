# Field case sdxl_lora_dim16_te_prodigy_1024_nogc_5090_peak_readouts, in sd-scripts' own form: wave-4 "Run 1b" of the training-knowledge KB
# (mcp-tool-shop-org/readouts at 6fc304ec, training-knowledge/waves/wave-04-sdxl-measurement/research-raw.json): the recipe #166 command with the
# stated changes - dim 16 / alpha 16, text encoders trained, no reg, Prodigy lr 1.0 (decouple, weight_decay 0.01, d_coef 2,
# use_bias_correction, safeguard_warmup), cosine with 30 warmup steps, 600 steps; bf16, SDPA, latents cached, no gradient checkpointing
# (none named; the lycoris runs of the same wave are the ones that add it), batch 1 at a fixed 1024, the same 16-image x 10 folder.
# RTX 5090 32 GB, native Windows, sd-scripts torch 2.12.0+cu130 (main 48d368fa read for defaults).
# Outcome: peak 20.6 GB (1 Hz nvidia-smi sample; this KB writes MiB/1024 as GB) at 1.44 s/it.
python sdxl_train_network.py --pretrained_model_name_or_path sd_xl_base_1.0.safetensors \
  --train_data_dir dataset_stdstyl --output_dir out --output_name stdstyl_prodigy \
  --network_module networks.lora --network_dim 16 --network_alpha 16 \
  --learning_rate 1.0 --optimizer_type Prodigy \
  --optimizer_args "decouple=True" "weight_decay=0.01" "d_coef=2" "use_bias_correction=True" "safeguard_warmup=True" \
  --lr_scheduler cosine --lr_warmup_steps 30 --max_train_steps 600 \
  --mixed_precision bf16 --save_precision bf16 --sdpa --cache_latents \
  --resolution 1024,1024 --train_batch_size 1 --caption_extension .txt \
  --save_model_as safetensors --seed 42 --max_data_loader_n_workers 0
