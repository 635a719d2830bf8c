# Field case sd35_large_lora_r16_768_te_nogc_5090_oom_ai4artsed, in sd-scripts' own form: SD 3.5 Large LoRA (networks.lora_sd3,
# dim 16 / alpha 8, CLIP-L and CLIP-G LoRA trained by default) at a fixed 768x768, batch 1, AdamW8bit, bf16, latents cached, no
# gradient checkpointing, no fp8, text-encoder outputs not cached, on an RTX 5090 32 GB (Linux); OOM at the first training step.
# Source: https://github.com/joeriben/ai4artsed_webserver/blob/3fbf2467c71d4d880048561fc555959788d3e767/lora/TEST_RESULTS.md
# (attempt 5 = the "Training Parameters Used" command, rerun after ComfyUI was stopped; 2025-11-07).
# Faithfulness A: the reported command copied (paths shortened; the data folder holds 10_test_images/ with 16 JPGs at 768x768).
# Unset flags take sd-scripts' defaults (main a5a16204, 2025-10-15; the report pins no commit).
python sd3_train_network.py \
  --pretrained_model_name_or_path="sd3.5_large.safetensors" \
  --clip_l="clip_l.safetensors" \
  --clip_g="clip_g.safetensors" \
  --t5xxl="t5xxl_fp16.safetensors" \
  --train_data_dir="lora_test_dataset" \
  --output_dir="lora_test_output" \
  --output_name="test_lora_minimal" \
  --resolution="768,768" \
  --train_batch_size=1 \
  --max_train_epochs=1 \
  --save_every_n_epochs=1 \
  --network_module="networks.lora_sd3" \
  --network_dim=16 \
  --network_alpha=8 \
  --learning_rate=1e-4 \
  --optimizer_type="AdamW8bit" \
  --lr_scheduler="constant" \
  --mixed_precision="bf16" \
  --save_precision="bf16" \
  --cache_latents
