# Docs case docs_sdscripts_sd1_ft_512_12gb (expect fits 12).
# kohya-ss/sd-scripts docs/train_README-ja.md@48d368fa §latentsの事前取得, fine tuning method (the text was first
# written in fine_tune_README_ja.md 4b68913d, 2022-12-21; the same text is in docs/train_README-zh.md):
# "解像度はfine tuning時のメモリサイズに直結します。VRAM 12GBでは512,512が限界と思われます（※）。16GBなら512,704や512,768まで
# 上げられるかもしれません。なお256,256等にしてもVRAM 8GBでは厳しいようです（パラメータやoptimizerなどは解像度に関係せず一定の
# メモリが必要なため）。 ※batch size 1の学習で12GB VRAM、640,640で動いたとの報告もありました。"
# ("The resolution directly determines the memory used in fine tuning. With 12GB of VRAM, 512,512 seems to be the limit
# (*). With 16GB you may be able to go up to 512,704 or 512,768. Even at 256,256 or so, 8GB of VRAM seems too tight
# (the parameters, optimizer etc. need a fixed amount of memory regardless of resolution). *There was also a report
# that training at batch size 1 with 640,640 worked on 12GB VRAM.")
# Read: 512,512 fits 12GB (the "limit" is not read as borderline: the footnote reports 640,640 working on 12GB).
# Also docs/fine_tune_README_ja.md@48d368fa line 1: "Windows＋VRAM 12GB（SD v1.xの場合）環境等に対応したfine tuning"
# ("fine tuning that supports ... Windows + 12GB VRAM (for SD v1.x)").
# Given: --resolution 512,512 (the statement). Filled: batch 1 (the example command's; the doc also says to start with
# batch 1); nothing else.
# Command: the fine_tune.py example of docs/fine_tune_README_ja.md@48d368fa, section 以前の形式のデータセット指定をした場合の
# コマンドライン ("resolution and batch size are given as options"), kept as published: model.ckpt (SD 1.x),
# --in_json meta_lat.json (latents pre-computed by prepare_buckets_latents.py, the step this statement sits in), batch 1,
# lr 5e-6, --use_8bit_adam, --xformers, --gradient_checkpointing, --mixed_precision bf16; U-Net only (fine_tune.py's
# default: no --train_text_encoder).
accelerate launch --num_cpu_threads_per_process 1 fine_tune.py \
    --pretrained_model_name_or_path=model.ckpt \
    --in_json meta_lat.json \
    --train_data_dir=train_data \
    --output_dir=fine_tuned \
    --shuffle_caption \
    --resolution=512,512 \
    --train_batch_size=1 --learning_rate=5e-6 --max_train_steps=10000 \
    --use_8bit_adam --xformers --gradient_checkpointing \
    --mixed_precision=bf16 \
    --save_every_n_epochs=4
