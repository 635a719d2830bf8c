# Docs case docs_sdscripts_sd1_db_12gb.
# kohya-ss/sd-scripts docs/train_db_README-ja.md@48d368fa §学習の実行 (sentence and command added together in db8c79c4,
# 2023-03-05; same text in docs/train_db_README-zh.md): "最大限、メモリを節約したコマンドは以下のようになります ...
# 12GB程度のVRAMで動作するようです。" ("The most memory-saving command is as follows ... It seems to work with about 12GB
# of VRAM.") and "ファイル内でのバッチサイズ指定は、当初はメモリ消費を抑えるために `1` としてください" ("set the batch size in
# the .toml file to 1 at first, to keep memory consumption down").
# Given (the doc's command, kept as published): train_db.py, prior_loss_weight 1.0, 1600 steps, lr 1e-6, AdamW8bit,
# --xformers, --mixed_precision fp16, --cache_latents, --gradient_checkpointing; batch 1 (the doc's instruction).
# Filled: --dataset_config written as flags: --train_data_dir/--reg_data_dir (the class+identifier dataset example of
# docs/train_README-ja.md, the data-preparation doc it links, which has a reg-image subset), --resolution 512 and
# --enable_bucket (that example's resolution = 512, enable_bucket = true); model: an SD 1.x checkpoint (no --v2, the
# doc's .ckpt/.safetensors placeholder); text encoder + U-Net trained (train_db.py's default). Placeholder paths.
accelerate launch --num_cpu_threads_per_process 1 train_db.py \
    --pretrained_model_name_or_path=model.safetensors \
    --train_data_dir=path/to/train_images --reg_data_dir=path/to/reg_images \
    --resolution=512 --train_batch_size=1 --enable_bucket \
    --output_dir=path/to/output --output_name=db-model \
    --save_model_as=safetensors \
    --prior_loss_weight=1.0 \
    --max_train_steps=1600 \
    --learning_rate=1e-6 \
    --optimizer_type="AdamW8bit" \
    --xformers \
    --mixed_precision="fp16" \
    --cache_latents \
    --gradient_checkpointing
