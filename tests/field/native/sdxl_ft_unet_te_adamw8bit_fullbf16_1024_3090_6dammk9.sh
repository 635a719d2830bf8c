# Field case sdxl_ft_unet_te_adamw8bit_fullbf16_1024_3090_6dammk9 (kohya sd-scripts, sdxl_train.py), batch 2026-12-08b.
# Source: https://github.com/6DammK9/nai-anime-pure-negative-prompt/blob/c5bb883d3cb18d12fb7399724a2f58926d8be721/ch06/sd-scripts-runtime/readme.md
#   and ch06/sd-scripts-runtime/logs/train/24120801.sh at 6cb9969d (6DammK9; run 2024-12-10/11, note 2024-12-16).
# Outcome: fits on an RTX 3090 24GB (Windows, single GPU): 62240/62240 steps at 1.42 s/it; notes: 22 GB (2024-12-09) / 23 GB (2024-12-16).
# Grade A: command copied from logs/train/24120801.sh (= the readme's text-encoder command); paths are placeholders.
# Added: --resolution="1024,1024" (absent in the original; buckets come from meta_lat.json, largest 1024x1024 area).
# Defaults (sd-scripts sd3 branch e425996a, 2024-12-07): text encoders 1 and 2 trained at learning_rate (no _te1/_te2 given), all in
#   bf16 (--full_bf16); --diffusers_xformers = xformers on the VAE only, U-Net attention plain; max_data_loader_n_workers 8;
#   latents pre-cached to .npz; 1 process, bf16.
accelerate launch sdxl_train.py \
  --pretrained_model_name_or_path="/models/x215c-AstolfoMix-24101101-6e545a3.safetensors" \
  --in_json "/data/just_astolfo/meta_lat.json" \
  --train_data_dir="/data/just_astolfo/kohyas_finetune" \
  --output_dir="/output/model_out" \
  --log_with=tensorboard \
  --logging_dir="/output/tensorboard" \
  --log_prefix=just_astolfo_24120801_ \
  --save_model_as=safetensors \
  --caption_extension=".txt" \
  --use_8bit_adam \
  --train_batch_size=1 --learning_rate=1e-5 --max_train_epochs=10 \
  --train_text_encoder \
  --xformers --diffusers_xformers --gradient_checkpointing \
  --full_bf16 --mixed_precision=bf16 --save_precision=fp16 \
  --enable_bucket --cache_latents \
  --save_every_n_epochs=1 \
  --resolution="1024,1024"
