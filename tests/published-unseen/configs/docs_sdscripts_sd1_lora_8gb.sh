# Docs case docs_sdscripts_sd1_lora_8gb (expect fits 8).
# kohya-ss/sd-scripts docs/train_network_README-ja.md@48d368fa, introduction (written 7ada935d, 2022-12-25; same in
# docs/train_network_README-zh.md): "8GB VRAMでもぎりぎり動作するようです。" ("It seems to work, just barely, even with 8GB
# VRAM."); §追加情報 of the same doc: "2022/12/25時点では ... メモリ使用量は増え、8GBぎりぎりになりました" ("as of 2022/12/25 ...
# memory use grew and is now just at the 8GB limit").
# Read: fits 8, not borderline: the sentence dates from the 2022-12-25 example (448x640, no gradient checkpointing, no
# latent cache); today's example in the same doc adds --gradient_checkpointing and --cache_latents, which only lower
# memory, so "just barely" does not describe this command (the 2023-01 README put the checkpointed dim-4 job at 6GB).
# Command: the doc's example in §学習の実行, kept as published: train_network.py, prior_loss_weight 1.0, 400 steps,
# lr 1e-4, AdamW8bit, --xformers, --mixed_precision fp16, --cache_latents, --gradient_checkpointing, networks.lora
# (no --network_dim: the default, 4; text encoder + U-Net LoRA, the default).
# Filled: --dataset_config written as flags: --train_data_dir/--reg_data_dir, --resolution 512, --enable_bucket from the
# class+identifier dataset example of docs/train_README-ja.md (the data-preparation doc it links; resolution = 512,
# enable_bucket = true); --train_batch_size 1, not that example's 4: the doc gives no batch size, the sentence was written
# for the batch-1 example of 2022-12-25, and batch 1 is the setting under which the claim must hold. Model: an SD 1.x
# checkpoint (no --v2). Placeholder paths.
accelerate launch --num_cpu_threads_per_process 1 train_network.py \
    --pretrained_model_name_or_path=model.safetensors \
    --train_data_dir=path/to/train_images --reg_data_dir=path/to/reg_images \
    --resolution=512 --train_batch_size=1 --enable_bucket \
    --output_dir=path/to/output --output_name=lora-name \
    --save_model_as=safetensors \
    --prior_loss_weight=1.0 \
    --max_train_steps=400 \
    --learning_rate=1e-4 \
    --optimizer_type="AdamW8bit" \
    --xformers \
    --mixed_precision="fp16" \
    --cache_latents \
    --gradient_checkpointing \
    --save_every_n_epochs=1 \
    --network_module=networks.lora
