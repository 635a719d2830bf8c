# Field case sd15_lora_dim128_te_512_adamw8bit_4gb_oom_kohya340 (kohya_ss GUI -> sd-scripts train_network.py), batch 2026-12-08b.
# Source: https://github.com/bmaltais/kohya_ss/issues/340 (description by AronTW, 2023-03-09; "Guess 4gb VRAM isn't enough-", 2023-03-18).
# Outcome: oom on a 4 GB card (model not named), at accelerator.prepare (model placement), every try; also at a lower resolution.
# Grade A: the command the GUI printed, copied; paths are placeholders (train_data_dir holds 100_VRCAron with 22 images).
# Defaults (sd-scripts 0eb01dea, 2023-02-23 = the copy bundled in kohya_ss at the date; traceback lines 176/507 match): no
#   --enable_bucket (fixed 512x512), no --lowram, max_token_length 75; U-Net and text encoder enter accelerator.prepare in fp32.
accelerate launch --num_cpu_threads_per_process=2 "train_network.py" \
  --pretrained_model_name_or_path="runwayml/stable-diffusion-v1-5" \
  --train_data_dir="/data/aronvrc_lora/image" \
  --resolution=512,512 \
  --output_dir="/data/aronvrc_lora/model" \
  --logging_dir="/data/aronvrc_lora/log" \
  --network_alpha="128" \
  --save_model_as=safetensors \
  --network_module=networks.lora \
  --text_encoder_lr=5e-5 --unet_lr=0.0001 \
  --network_dim=128 \
  --output_name="AronVRC" \
  --lr_scheduler_num_cycles="1" --learning_rate="0.0001" --lr_scheduler="constant" \
  --train_batch_size="1" --max_train_steps="2200" --save_every_n_epochs="1" \
  --mixed_precision="fp16" --save_precision="fp16" \
  --seed="1234" --caption_extension=".txt" \
  --cache_latents \
  --optimizer_type="AdamW8bit" \
  --max_data_loader_n_workers="1" \
  --clip_skip=2 --bucket_reso_steps=64 \
  --mem_eff_attn --gradient_checkpointing --xformers \
  --bucket_no_upscale
