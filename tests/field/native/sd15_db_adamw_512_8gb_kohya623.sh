# Field case sd15_db_adamw_512_8gb_kohya623, in sd-scripts' own form: the train_db.py command that the kohya_ss GUI
# printed in the report (bmaltais/kohya_ss#623, 2023-04-15), copied flag for flag; only paths are shortened. A full
# DreamBooth fine-tune of an SD 1.x checkpoint (a Waifu Diffusion .ckpt; no --v2 flag) at 512x512, batch 1, plain
# (32-bit) AdamW, fp16 mixed precision without --full_fp16, latents cached, checkpointing, xFormers and
# --mem_eff_attn both given, clip skip 2. The text encoder is trained too: train_db.py of that date trains it unless
# --stop_text_encoder_training is given (the GUI printed "stop_text_encoder_training = 0" and passed no flag).
# No --enable_bucket (the bucket flags are inert). 15 images x 100 repeats, 1500 steps.
accelerate launch --num_cpu_threads_per_process=2 "train_db.py" \
  --pretrained_model_name_or_path="WaifuDiffusion.ckpt" \
  --train_data_dir="image" --resolution=512,512 \
  --output_dir="model" --logging_dir="model" \
  --save_model_as=safetensors --output_name="lora_char" \
  --max_data_loader_n_workers="1" --learning_rate="0.0001" --lr_scheduler="constant" \
  --train_batch_size="1" --max_train_steps="1500" --save_every_n_epochs="1" \
  --mixed_precision="fp16" --save_precision="fp16" --seed="1234" \
  --caption_extension=".txt" --cache_latents --optimizer_type="AdamW" \
  --max_data_loader_n_workers="1" --clip_skip=2 --bucket_reso_steps=64 \
  --mem_eff_attn --gradient_checkpointing --xformers --bucket_no_upscale
