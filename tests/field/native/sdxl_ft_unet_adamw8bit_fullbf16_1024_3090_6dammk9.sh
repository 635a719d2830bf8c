# Field case sdxl_ft_unet_adamw8bit_fullbf16_1024_3090_6dammk9 (kohya sd-scripts, sdxl_train.py), batch 2026-12-08b.
# Source: https://github.com/6DammK9/nai-anime-pure-negative-prompt/blob/5f220b63dafad054bc4d45bda6edc9730971d4ed/ch06/sd-scripts-runtime/readme.md
#   and ch06/sd-scripts-runtime/finetune_sdxl.log at the same commit (6DammK9, run 2024-12-08, committed 2024-12-09).
# Outcome: fits on an RTX 3090 24GB (Windows, single GPU): 10000/10000 steps at 1.19 s/it; readme: 21 GB (22 GB in a later note).
# Grade A: command copied from the readme / log; paths are placeholders (Windows drive paths in the original).
# Added: --resolution="1024,1024" (absent in the original; the fine-tuning dataset takes its buckets from meta_lat.json, largest
#   1024x1024 area, so sd-scripts behaves the same; it states the bucket size for the estimate).
# Defaults (sd-scripts sd3 branch e425996a, 2024-12-07): U-Net only (no --train_text_encoder: both text encoders stay on the GPU in
#   bf16, outputs not cached); --diffusers_xformers = xformers on the VAE only, U-Net attention stays the plain baddbmm/softmax path;
#   AdamW8bit via --use_8bit_adam; max_data_loader_n_workers 8; latents pre-cached to .npz (VAE idle in the step); 1 process, bf16.
accelerate launch --num_cpu_threads_per_process 8 sdxl_train.py \
  --pretrained_model_name_or_path="/models/x215c-AstolfoMix-24101101-6e545a3.safetensors" \
  --in_json "/data/just_astolfo/meta_lat.json" \
  --train_data_dir="/data/just_astolfo/kohyas_finetune" \
  --output_dir="/output/finetune_job" \
  --save_model_as=safetensors \
  --caption_extension=".txt" \
  --use_8bit_adam \
  --train_batch_size=1 --learning_rate=4e-7 --max_train_steps=10000 \
  --xformers --diffusers_xformers --gradient_checkpointing \
  --full_bf16 --mixed_precision=bf16 --save_precision=fp16 \
  --enable_bucket --cache_latents \
  --save_every_n_epochs=1 \
  --resolution="1024,1024"
