# Field case sd15_lora_768_fp32_1660s_second_run_kohya1202, in sd-scripts' own form: the same kohya_ss GUI LoRA at
# 768 px with mixed precision "no" (stated). The base model is not named (SD 1.5 assumed); the rest is the
# GUI's defaults of July 2023: dim 8 / alpha 1, AdamW8bit, batch 1, latents cached, xFormers, no gradient
# checkpointing, text-encoder LoRA trained.
accelerate launch train_network.py \
  --pretrained_model_name_or_path v1-5-pruned.safetensors \
  --train_data_dir img --output_dir out \
  --resolution 768,768 --enable_bucket \
  --cache_latents \
  --train_batch_size 1 \
  --mixed_precision no --save_precision fp16 \
  --xformers \
  --optimizer_type AdamW8bit \
  --network_module networks.lora --network_dim 8 --network_alpha 1 \
  --unet_lr 1e-4 --text_encoder_lr 5e-5
