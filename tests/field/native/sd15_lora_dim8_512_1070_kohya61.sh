# Field case sd15_lora_dim8_512_1070_kohya61, in sd-scripts' own form: the command the report pasted
# (train_network.py on an SD 1.5 fine-tune). Its tail, where precision and checkpointing flags would be, is
# cut: those take the script's defaults (mixed_precision "no", no gradient checkpointing).
accelerate launch train_network.py \
  --pretrained_model_name_or_path f222.ckpt \
  --train_data_dir img --output_dir out \
  --resolution 512 --enable_bucket \
  --use_8bit_adam \
  --xformers \
  --network_module networks.lora --network_dim 8 \
  --unet_lr 1e-3 --text_encoder_lr 5e-5 \
  --train_batch_size 1 --max_train_steps 25
