# Field case chroma_lora_dim16_bf16base_t5live_1024_5090_spill_readouts, in sd-scripts' own form: the proven Chroma LoRA command of recipe #168 in the
# tensor-engine / training-knowledge KBs (mcp-tool-shop-org/readouts at 6fc304ec: tensor-engine-knowledge/scripts/_wave8_chroma.py (recipe #167/#168 gotcha 2) and waves/wave-08-chroma-baseswap/report.md
# (2026-06-03)).
# flux_train_network.py --model_type chroma, Chroma1-HD loaded bf16 (no --fp8_base), so the fp8 T5-XXL file is also loaded as bf16 (sd-scripts loads T5 at the weight dtype when
# fp8_base is off); networks.lora_flux dim 16 / alpha 16
# (DiT only, 228 modules), AdamW lr 1e-4 constant, 600 steps, bf16, SDPA, gradient checkpointing, latents cached, text-encoder outputs NOT
# cached (--apply_t5_attn_mask forbids it, so T5 runs live every step), guidance 0, sigmoid timesteps, raw prediction.
# Dataset (chroma_lora_dim16_bf16base_t5live_1024_5090_spill_readouts.toml, the archived proof/chroma_dataset.toml): 16 cyanotype images x 10 + 16 reg images x 10, batch 1 at a fixed 1024,
# no buckets. RTX 5090 32 GB, native Windows (WDDM); sd-scripts venv torch 2.12.0+cu130 (commit not given; main 48d368fa of 2026-02-16
# read for defaults). No sampling. Run by full script path (no accelerate launch), as the recipe says.
# Outcome: spilled - "bf16 Chroma + live T5 SPILLS the 32 GB card: VRAM pinned at 31974/32607 MiB and step time ballooned 5 -> 34 s/it (WDDM
# paging GPU mem to system RAM)"; killed and rerun with --fp8_base.
python flux_train_network.py \
  --pretrained_model_name_or_path Chroma1-HD.safetensors --model_type chroma \
  --t5xxl t5xxl_fp8_e4m3fn.safetensors --ae ae.safetensors \
  --dataset_config chroma_lora_dim16_bf16base_t5live_1024_5090_spill_readouts.toml \
  --output_dir out --output_name stdstyl_chroma_lora \
  --network_module networks.lora_flux --network_dim 16 --network_alpha 16 \
  --learning_rate 1e-4 --optimizer_type AdamW --lr_scheduler constant --max_train_steps 600 \
  --mixed_precision bf16 --save_precision bf16 \
  --sdpa --gradient_checkpointing --cache_latents \
  --guidance_scale 0.0 --timestep_sampling sigmoid --model_prediction_type raw --apply_t5_attn_mask \
  --save_model_as safetensors --seed 42 --max_data_loader_n_workers 0
