# Field case zimage_base_lora_r16_bf16_1536_swap12_3080_20gb_staticcomfyui, in musubi-tuner's own form: train_lora/musubi_train.sh of
# quqiufeng/static_comfyui at 1d372b7b with train_lora.md's recipe at the same commit ("当前推荐配方（2026-10 实测定稿）"): Z-Image Base
# (Tongyi-MAI/Z-Image, bf16 shard 1 of 2, 12.3 GB) with NO fp8, 12 of the DiT's blocks swapped (the script's plain --blocks_to_swap; the
# pinned/h2d ring options came in a later version of the script), gradient checkpointing, SDPA, adamw8bit lr 1e-4, LoRA dim/alpha 16,
# 8 epochs x 56 images = 448 steps, a save every epoch; latents and Qwen3 text-encoder outputs cached beforehand.
# Dataset (.toml beside): the same 56 style images at 1536 buckets, batch 1, no upscaling.
# Card: RTX 3080 20GB (Linux, torch 2.6.0+cu126). musubi-tuner from source, commit not given (30c658c4 of 2026-06-24 read for defaults).
# Outcome: fits - "显存 | 20G：--blocks_to_swap 12" and "实测 | 11.4s/步，~1h25m". The same file's section 9 lists "blocks_to_swap 4"
# among the adopted changes; the recipe table, the section 6 command and section 16 (1536 "显存不够，必须换出" -> BLOCKS=12) all say 12.
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision bf16 src/musubi_tuner/zimage_train_network.py \
  --dit z-image-base/transformer/diffusion_pytorch_model-00001-of-00002.safetensors \
  --vae z-image-turbo/vae/diffusion_pytorch_model.safetensors \
  --text_encoder z-image-te-qwen3.safetensors \
  --dataset_config zimage_base_lora_r16_bf16_1536_swap12_3080_20gb_staticcomfyui.toml \
  --sdpa --mixed_precision bf16 \
  --timestep_sampling shift --weighting_scheme none --discrete_flow_shift 2.0 \
  --optimizer_type adamw8bit --learning_rate 1e-4 \
  --gradient_checkpointing \
  --max_data_loader_n_workers 2 --persistent_data_loader_workers \
  --network_module networks.lora_zimage --network_dim 16 --network_alpha 16 \
  --seed 42 --output_dir mystyle_base --output_name mystyle \
  --blocks_to_swap 12 \
  --max_train_epochs 8 --save_every_n_epochs 1
