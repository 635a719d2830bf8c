# Field case flux2_dev_lora_r32_bs4_1024_fp8_h200_peak_videome, in musubi-tuner's own form: a FLUX.2-dev LoRA
# (character "Max") trained with flux_2_train_network.py on a RunPod H200 (rekha0708/video_me). The command is the one
# the project's scripts/setup_gpu.sh prints for this job (commits c30d3836 and 958a2930, 2026-06-28/29), with the
# settings its Claude Code memory file (.claude/memory/project_lora_training.md, 2026-06-29) gives for the runs that
# were measured: dim 32 / alpha 16, --fp8_base --fp8_scaled, bf16, flash attention, adamw8bit ("current runs";
# the later commit switches future runs to adamw), batch 4 at 1024 (dataset TOML), 1200 steps = 4 epochs.
# --gradient_checkpointing is NOT in the printed command; it is added because the memory file's VRAM breakdown
# lists "Activations (gradient checkpointing)" and a 32B DiT at batch 4 x 1024 px could not stay near the reported
# total without it. Learning rate 1e-4 as in commit 958a2930 (not memory-relevant). No sample prompts.
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision bf16 src/musubi_tuner/flux_2_train_network.py \
  --model_version dev --dit flux2-dev.safetensors \
  --vae ae.safetensors \
  --text_encoder text_encoder/model-00001-of-00010.safetensors \
  --dataset_config flux2_dev_lora_r32_bs4_1024_fp8_h200_peak_videome.toml \
  --flash_attn --mixed_precision bf16 --fp8_base --fp8_scaled \
  --optimizer_type adamw8bit --learning_rate 1e-4 \
  --gradient_checkpointing \
  --network_module networks.lora_flux_2 --network_dim 32 --network_alpha 16 \
  --max_train_epochs 4 --save_every_n_epochs 2 --seed 42 \
  --output_dir loras --output_name kids_duo_max
