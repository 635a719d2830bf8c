// The memory-relevant settings of one trainer process, as AI Toolkit resolves them (defaults,
// per-dataset overrides, legacy spellings), each with the config path that sets it. The estimator
// reads only this; the advisor changes it to see what a config change would save.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "systems/aitk/job.h"

namespace oomlint {

// One dataset as the peak sees it: AI Toolkit splits a resolution list into one dataset per value.
struct DatasetShape {
  std::size_t index = 0;        // datasets[index]
  int resolution = 512;         // square-equivalent max side (bucket area ≤ resolution²)
  int frames = 1;
  int batch = 1;                // images per step, as the peak sees it (captions doubling included)
  int controls = 0;             // control images per sample (edit models)
  bool cachesLatents = false;
  bool followsTrainBatch = true;  // no batch_size of its own: train.batch_size sets it
  bool latentsInMemory = false;   // cache_latents: every latent is kept in system RAM too
};

struct TrainingSetup {
  // The model trained: the catalog entry, or a copy with a variant's dimensions (Wan 2.1 1.3B).
  std::shared_ptr<const Architecture> arch;
  std::string trainDtype = "fp32";
  // model.vae_dtype where written; empty: the model's, which is train.dtype (config_modules.py:680, BaseSDTrainProcess.py:117).
  std::string vaeDtype;
  // The sampling pipeline decodes this fp16 VAE in fp32 (diffusers' force_upcast; Vae::upcastsFp16SampleDecode).
  bool sampleDecodeUpcast = false;
  bool quantize = false;
  std::string qtype = "qfloat8";
  bool quantizeTe = false;
  std::string qtypeTe = "qfloat8";
  bool accuracyRecoveryAdapter = false;
  // The range reaches AI Toolkit's releases before the snapshot the estimate assumes; false for another trainer's job
  // estimated on this arithmetic (sd-scripts, musubi-tuner).
  bool aiToolkitHistory = true;
  bool lowVram = false;
  bool layerOffloading = false;
  double offloadTransformer = 1.0;
  // sd-scripts' and musubi-tuner's block swap exchange a GPU block's weights with a CPU block's in the same CUDA
  // buffers (custom_offloading_utils.py swap_weight_devices_cuda): no ring of weights in flight, as AI Toolkit's has.
  bool swapsBlocksInPlace = false;
  // musubi-tuner's --fp8_scaled converts the blocks' Linears only (each model's FP8_OPTIMIZATION_TARGET_KEYS): the
  // embedders, heads and Krea 2's text fusion stay in bf16.
  bool fp8BlocksOnly = false;
  double offloadTextEncoder = 1.0;
  bool unloadTextEncoder = false;
  bool textEncoderOnCpu = false;  // the trainer runs the text encoders on the CPU (sd-scripts' --text_encoder_cpu)
  bool cacheTextEmbeddings = false;
  bool trainTextEncoder = false;
  bool textEncoderEmbeddingGrads = false;  // a trained text encoder's embedding tables keep their grads (sd-scripts)
  // The frozen text encoders' dtype where it is not the training dtype's (sd-scripts' fine-tunes cast them to
  // the mixed precision's while the trained models stay fp32); empty: the training dtype.
  std::string frozenTextEncoderDtype;
  // trainable parameters
  bool fullFinetune = false;
  // The adapter's weights and grads per parameter; 0: AI Toolkit's fp32 (memory.yaml lora_weight_bytes). sd-scripts'
  // --full_bf16 / --full_fp16 casts the network to the weight dtype (train_network.py: network.to(weight_dtype)).
  double adapterBytes = 0;
  std::string networkType = "lora";
  double rank = 4;
  // Weight-sized tensors the adapter's forward keeps for the backward per adapted layer: 0 for an adapter that runs
  // beside the layer (a LoRA's down and up, LyCORIS in its bypass mode); LyCORIS otherwise runs the layer's op on the
  // weight delta it builds (1), DoRA's decomposition on the merged weight as well (2).
  int mergedWeightCopies = 0;
  // network_kwargs narrows the adapted layers beyond the preset (OL420). Which layers is not modelled: the
  // estimate counts every default target, and its range reaches `noLayerAdapted`, the same job with an adapter
  // on no layer (no adapter state; every block keeps what a frozen one does).
  bool loraTargetsNarrowed = false;
  bool noLayerAdapted = false;
  std::string optimizer = "adamw";
  bool fusedBackward = false;  // the step runs in the backward pass whatever the optimizer (sd-scripts --fused_backward_pass)
  bool ema = false;
  // activations
  bool gradientCheckpointing = true;
  int trainBatch = 1;          // train.batch_size (at least 1)
  int captionBatchFactor = 1;  // 2 with short_and_long_captions: each image is seen with both captions
  // Sets train.batch_size and every dataset that follows it (the plan's batch steps go through here).
  void setTrainBatch(int batch);
  std::vector<DatasetShape> datasets;
  // model_kwargs.match_target_res: control images resized to the target's area, not encoded at their raw size up to
  // the architecture's control_max_pixels (FLUX.2).
  bool controlsAtTargetSize = false;
  // model_kwargs.vae_tiling: the Wan classes tile their sampling decode without low_vram too (886c2aec).
  bool vaeTilingAsked = false;
  int extraForwardPasses = 0;  // DOP, blank-prompt preservation, guidance losses: prior passes without grad
  bool preservationLoss = false;
  // AI Toolkit's adapted Linears cast their input to fp32 and save it so (network_mixins.py); a trainer under
  // autocast (sd-scripts, musubi-tuner), or a full fine-tune's trained bf16 Linears, save it in bf16: the
  // census's autocast_* figures.
  bool loraInputsFp32 = true;
  // Bytes per element of activations and VAE work: 2 in bf16/fp16 (AI Toolkit; autocast), 4 when nothing runs
  // in half precision (an AI Toolkit job in fp32, sd-scripts without --mixed_precision). The census's figures are for 2.
  double activationBytes = 2;
  // A UNet whose attention materialises its score matrices (sd-scripts' original_unet.py without --xformers, --sdpa or
  // --mem_eff_attn: baddbmm, softmax, bmm). AI Toolkit's diffusers UNets run PyTorch's SDPA.
  bool plainAttention = false;
  // sampling
  bool baselineSample = true;
  bool periodicSample = true;
  int sampleWidth = 512;
  int sampleHeight = 512;
  int sampleFrames = 1;
  int sampleControls = 0;  // the most control images one sample prompt gives (ctrl_img…)
  double guidanceScale = 7;

  // host RAM
  bool singleFileCheckpoint = false;  // name_or_path is one .safetensors file: it stays mapped as a whole
  int numWorkers = 2;                 // datasets[0].num_workers: the data loader's worker processes
  int prefetchFactor = 2;             // batches each worker keeps ready

  bool isVideo() const { return arch && arch->isVideo(); }
  bool anyLatentCache() const;
  // An edit model encodes a dataset's control images in every step, latents cached or not (flux_kontext.py
  // condition_noisy_latents, qwen_image_edit_plus.py, flux2_model.py encode_image_refs).
  bool encodesControlsInStep(const DatasetShape& d) const;
  bool vaeStaysResident() const;  // some dataset encodes latents or control images every step
  const std::string& vaeWeightDtype() const { return vaeDtype.empty() ? trainDtype : vaeDtype; }
  double vaeElementBytes() const;  // of the VAE's own passes: its written dtype's, else the activations'
  // The text encoders a job trains: where trainTextEncoder asks and the family's encoders can be (the UNet
  // families'; the ones with a LoRA size in architectures.yaml).
  bool trainsTextEncoders() const;
  const std::string& textEncoderDtype() const;
};

// A non-owning handle on a catalog entry (the catalog outlives every setup).
inline std::shared_ptr<const Architecture> borrowed(const Architecture& arch) {
  return std::shared_ptr<const Architecture>(std::shared_ptr<const Architecture>(), &arch);
}

// The process's settings, or nullopt when its architecture is unknown (nothing to estimate from).
std::optional<TrainingSetup> setupFrom(const TrainerProcess& process);

// train.dtype spellings that name the same torch dtype ("bf16" and "bfloat16": toolkit/train_tools.py get_torch_dtype).
std::string canonicalDtype(std::string_view dtype);
// A dtype spelling AI Toolkit's get_torch_dtype knows (fp32, half, bfloat16, e4m3fn, …).
bool isTorchDtype(std::string_view dtype);

// `model.quantize: true` applied to a setup (qfloat8 unless a qtype is set); the text encoder follows it
// when `quantize_te` is not written. The plan and the host plan both offer it.
void quantizeModel(TrainingSetup& t, bool encoderFollows);

}  // namespace oomlint
