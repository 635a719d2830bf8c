# Unseen case sdscripts_sd1_lora_dim4_6gb (vram-measurements.md row 49).
# kohya-ss/sd-scripts README.md@223640e1 (2023-01-09), train_network.py: "Now --gradient_checkpointing is effective for
# U-Net and Text Encoder ... The training might be possible with 6GB VRAM for dimension=4 with batch size=1."
# Command: the basic example of train_network_README-ja.md@223640e1 (DreamBooth style, SD 1.x .ckpt, 448x640, batch 1,
# --use_8bit_adam, --xformers, fp16, --clip_skip 2, --color_aug, LoRA U-Net + text encoder), plus what the claim adds:
# --gradient_checkpointing and --network_dim 4 (also the default of that date).
# Filled: nothing beyond the doc's example; paths written with / instead of the doc's Windows \ .
accelerate launch --num_cpu_threads_per_process 12 train_network.py \
  --pretrained_model_name_or_path=../models/model.ckpt \
  --train_data_dir=../data/db/char1 --output_dir=../lora_train1 \
  --reg_data_dir=../data/db/reg1 --prior_loss_weight=1.0 \
  --resolution=448,640 --train_batch_size=1 --learning_rate=1e-4 \
  --max_train_steps=400 --use_8bit_adam --xformers --mixed_precision=fp16 \
  --save_every_n_epochs=1 --save_model_as=safetensors --clip_skip=2 --seed=42 --color_aug \
  --network_module=networks.lora --network_dim=4 --gradient_checkpointing
