// The memory-relevant settings of an sd-scripts job, each derived once, here, with the argument that set
// it (nullptr: argparse's default, from rules/sd-scripts.yaml), the way the script resolves them: the
// dataset TOML over the command line for resolution and batch size, split_mode as blocks_to_swap 18,
// cache_latents_to_disk implying cache_latents.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/knowledge/architectures.h"
#include "systems/sdscripts/job.h"

namespace oomlint {

template <class T>
struct SdSetting {
  T value{};
  const SdArg* from = nullptr;  // nullptr: the default
  bool isDefault() const { return from == nullptr; }
};

// Where the dataset TOML sets a value (for a fix there).
struct SdDatasetValue {
  int value = 0;
  const Node* node = nullptr;
  KeyPath path;
};

struct SdSetup {
  const TrainerScript* script = nullptr;
  const Architecture* arch = nullptr;  // nullptr: a family oomlint does not model
  SdSetting<std::string> mixedPrecision;  // "no" (fp32 weights), "fp16", "bf16"
  SdSetting<bool> fullBf16, fullFp16, fp8Base, fp8BaseUnet;
  SdSetting<bool> fp8Scaled;  // HunyuanImage 2.1's own fp8 DiT (its script ignores fp8_base)
  SdSetting<bool> textEncoderCpu;  // HunyuanImage's --text_encoder_cpu: the encoders run on the CPU
  SdSetting<bool> noHalfVae;       // --no_half_vae: the VAE in fp32 whatever the mixed precision
  // The U-Net's attention materialises its scores: no --xformers, --sdpa or --mem_eff_attn replaces it
  // (train_util.replace_unet_modules), or the script skips that under --diffusers_xformers.
  bool unetPlainAttention = false;
  SdSetting<std::string> vaeDtype;  // musubi-tuner: --vae_dtype, else the script's (rules: vae_dtype); empty for sd-scripts
  SdSetting<bool> gradientCheckpointing, cpuOffloadCheckpointing;
  SdSetting<int> blocksToSwap;  // split_mode becomes 18 (flux_train_network.py)
  SdSetting<bool> splitMode;
  SdSetting<bool> cacheLatents, cacheLatentsToDisk, cacheTextEncoderOutputs;
  SdSetting<bool> lowram, networkTrainUnetOnly;
  // A fine-tune script trains the text encoders: fine_tune.py and sdxl_train.py with --train_text_encoder (sdxl_train.py:
  // not where both --learning_rate_te1 and --learning_rate_te2 are 0), train_db.py unless --stop_text_encoder_training
  // is negative.
  SdSetting<bool> finetuneTextEncoders;
  SdSetting<int> networkDim;  // None → 4 (networks/lora*.py)
  SdSetting<std::string> networkModule;
  bool lokr = false;  // LyCORIS LoKr (its network_dim 100000 means "full": about a rank-4 LoRA's size)
  // LyCORIS (network_module lycoris.kohya) outside its bypass mode builds each adapted layer's weight delta in its
  // forward and keeps it for the backward; DoRA (dora_wd) the merged weight too: the copies per adapted layer.
  int mergedWeightCopies = 0;
  SdSetting<std::string> optimizer;  // "" → AdamW; use_8bit_adam → AdamW8bit
  SdSetting<bool> fusedBackwardPass;  // each grad applied by the (Adafactor) step and freed in the backward pass
  SdSetting<int> gradientAccumulationSteps;
  // Per step: the dataset TOML's batch_size (largest dataset) over --train_batch_size.
  SdSetting<int> trainBatch;
  std::optional<SdDatasetValue> datasetBatch;
  // The largest training resolution (square-equivalent side), from the dataset TOML or --resolution.
  SdSetting<int> resolution;
  std::optional<SdDatasetValue> datasetResolution;
  bool resolutionAssumed = false;  // none given: the family's native size
  // Samples during training (the prompt file's size is not known: its default 512×512).
  SdSetting<bool> sampleAtFirst;
  bool samplesDuringTraining = false;
  const SdArg* sampleEvery = nullptr;

  // musubi-tuner: latents and text-encoder outputs are always cached beforehand, by their own scripts.
  bool musubi = false;
  const TrainerTool* tool = nullptr;
  std::string variantHint;  // what picks a smaller variant of the family (Wan's --task t2v-1.3B)
  int residentExperts = 0;  // Wan 2.2 A14B: the experts on the GPU (0: all the family has)
  int frames = 1;           // the longest clip (musubi-tuner's target_frames), or one section of it (FramePack)
  std::optional<SdDatasetValue> datasetFrames;
  std::optional<SdDatasetValue> datasetWindow;  // a section-trained script's window (FramePack's fp_latent_window_size)
  bool fp8TextEncoder = false;  // a caching script's --fp8_llm / --fp8_t5 / --fp8_vl

  bool finetune() const { return script && script->finetune(); }
  bool accepts(std::string_view arg) const { return tool && script && tool->arg(*script, arg) != nullptr; }
  bool isFlux() const { return script && script->name.starts_with("flux_"); }
  // The script's fp8 switch for the DiT: an sd-scripts script's fp8_scaled where it has one (hunyuan_image ignores
  // fp8_base), else fp8_base (musubi-tuner's fp8_scaled only refines its fp8_base).
  bool scaledFp8() const { return !musubi && accepts("fp8_scaled"); }
  bool ditFp8() const { return scaledFp8() ? fp8Scaled.value : fp8Base.value || fp8BaseUnet.value; }
  // The most --blocks_to_swap the script takes (paired units: three stay, flux_models.py / hunyuan_image_models.py
  // enable_block_swap asserts; else two blocks).
  int maxBlocksToSwap() const;
};

SdSetup setupFrom(const SdJob& job, const Architectures& architectures);

// What --blocks_to_swap counts in a model: FLUX's and HunyuanImage 2.1's double-stream block or pair of single-stream
// ones (the data's swap_units; FLUX's 38), else one block.
int blockSwapUnits(const Architecture& arch);

}  // namespace oomlint
