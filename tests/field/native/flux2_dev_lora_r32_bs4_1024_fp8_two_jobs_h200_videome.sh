# Field case flux2_dev_lora_r32_bs4_1024_fp8_two_jobs_h200_videome, in musubi-tuner's own form: one of the two
# identical FLUX.2-dev LoRA jobs (characters "Max" and "Zoe") that the project's memory file says must never run at the
# same time on the H200 ("causes CUDA OOM"). This is the "Zoe" job; the other process is the "Max" job of
# flux2_dev_lora_r32_bs4_1024_fp8_h200_peak_videome.sh. Same settings and the same inferred --gradient_checkpointing
# (see that file's header); dataset musubi_dataset_zoe.toml of commit c30d3836.
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision bf16 src/musubi_tuner/flux_2_train_network.py \
  --model_version dev --dit flux2-dev.safetensors \
  --vae ae.safetensors \
  --text_encoder text_encoder/model-00001-of-00010.safetensors \
  --dataset_config flux2_dev_lora_r32_bs4_1024_fp8_two_jobs_h200_videome.toml \
  --flash_attn --mixed_precision bf16 --fp8_base --fp8_scaled \
  --optimizer_type adamw8bit --learning_rate 1e-4 \
  --gradient_checkpointing \
  --network_module networks.lora_flux_2 --network_dim 32 --network_alpha 16 \
  --max_train_epochs 4 --save_every_n_epochs 2 --seed 42 \
  --output_dir loras --output_name kids_duo_zoe
