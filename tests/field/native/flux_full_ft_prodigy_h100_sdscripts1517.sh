# Field case flux_full_ft_prodigy_h100_sdscripts1517, in sd-scripts' own form: flux_train.py (full
# fine-tune) with Prodigy, from a kohya_ss GUI JSON whose other fields are blank: bf16 mixed precision (the
# FLUX default), and the script's defaults otherwise (no full_bf16, no gradient checkpointing, no caching
# flags, 512 px, batch 1).
accelerate launch --mixed_precision bf16 flux_train.py \
  --pretrained_model_name_or_path flux1-dev.safetensors \
  --clip_l clip_l.safetensors --t5xxl t5xxl_fp16.safetensors --ae ae.safetensors \
  --train_data_dir img --output_dir out \
  --resolution 512,512 \
  --train_batch_size 1 \
  --mixed_precision bf16 --save_precision bf16 \
  --optimizer_type Prodigy --learning_rate 1
