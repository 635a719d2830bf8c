# Field case sdxl_lora_dim16a8_te_adamw_1024_nogc_5090_peak_readouts, in sd-scripts' own form: the "COMMAND A" of recipe #166
# (tensor-engine-knowledge/scripts/_wave7_kohya_te.py in mcp-tool-shop-org/readouts at 6fc304ec) with run v1's values: SDXL base 1.0
# LoRA dim 16 / alpha 8 with the text encoders trained (unet_lr 1e-4, text_encoder_lr 5e-5), AdamW (fp32 states), constant LR, 300 steps,
# bf16 mixed precision, SDPA, latents cached, NO gradient checkpointing, batch 1 at a fixed 1024x1024 (no buckets: the run log prints
# enable_bucket False), DreamBooth folder 10_neutralset (16 images x 10 repeats), .txt captions, no reg images, no sampling.
# RTX 5090 32 GB, native Windows, sd-scripts venv torch 2.12.0+cu130 (commit not given; main 48d368fa of 2026-02-16 read for defaults).
# Outcome: peak 19890 MiB on nvidia-smi 1 s polling (proof/v1_vram_probe.csv; report: "Clean kohya-only peak VRAM: 19.42 GB"); the same
# probe reads 2861 MiB on the card before the trainer starts (desktop / freed ComfyUI), which the figure includes.
python sdxl_train_network.py --pretrained_model_name_or_path sd_xl_base_1.0.safetensors \
  --train_data_dir dataset_stdstyl --output_dir out --output_name stdstyl_te_lora \
  --network_module networks.lora --network_dim 16 --network_alpha 8 \
  --learning_rate 1e-4 --unet_lr 1e-4 --text_encoder_lr 5e-5 \
  --optimizer_type AdamW --lr_scheduler constant --max_train_steps 300 \
  --mixed_precision bf16 --save_precision bf16 --sdpa --cache_latents \
  --resolution 1024,1024 --train_batch_size 1 --caption_extension .txt \
  --save_model_as safetensors --seed 42 --max_data_loader_n_workers 0
