#include "systems/sdscripts/estimate.h"

#include <algorithm>
#include <memory>
#include <optional>

#include "base/text/ascii.h"
#include "engine/estimate_core.h"
#include "systems/aitk/estimate.h"

namespace oomlint {

namespace {

// sd-scripts' optimizer names as the memory model spells them (bitsandbytes' paged variants hold the
// same state, paged out only under pressure).
std::string optimizerName(const std::string& optimizerType) {
  std::string name = lowercase(optimizerType);
  const std::size_t dot = name.find_last_of('.');
  if (dot != std::string::npos) name = name.substr(dot + 1);  // a class path: bitsandbytes.optim.AdEMAMix8bit
  if (name.starts_with("paged")) name = name.substr(5);
  if (name == "adafactor" || name.starts_with("adafactor")) return "adafactor";
  if (name.starts_with("prodigy") && name.find("8bit") == std::string::npos) return "prodigy";
  return name;
}

// The weight dtype prepare_dtype() returns: only the script's own --mixed_precision counts.
std::string weightDtype(const SdSetup& s) {
  if (s.mixedPrecision.value == "bf16") return "bf16";
  if (s.mixedPrecision.value == "fp16") return "fp16";
  return "fp32";
}

// Widens `e`'s range to an older release's figures: the same estimate with `edit` applied to each phase's components.
template <class Edit>
void widenForOlderRelease(Estimate& e, const MemoryModel& model, const std::string& why, Edit edit) {
  Estimate older = e;
  for (auto& phase : older.phases) {
    for (auto& c : phase.components) edit(phase.phase, c);
    phase.range.clear();
    totalPhase(phase, model, e.coarse, Detail::Figures);
  }
  widenWith(e, older, why);
}

}  // namespace

TrainingSetup trainingSetupFor(const SdSetup& s) {
  TrainingSetup t;
  t.aiToolkitHistory = false;
  auto arch = std::make_shared<Architecture>(*s.arch);
  // The text-encoder facts of AI Toolkit's loaders do not hold here: sd-scripts casts FLUX's CLIP-L to fp8 with
  // T5 under --fp8_base (flux_train_network.py prepare_text_encoder_fp8), and neither script quantizes one
  // encoder before loading the DiT.
  for (auto& te : arch->textEncoders) {
    te.quantizedBeforeTransformer = false;
    if (s.isFlux()) te.neverQuantized = false;
  }
  if (const ArchVariant* v = s.variantHint.empty() ? nullptr : s.arch->variantFor(s.variantHint)) {
    arch->denoiser = v->denoiser;
    if (!v->label.empty()) arch->label = v->label;
  }
  if (s.residentExperts > 0 && s.residentExperts < arch->denoiser.experts) {
    // Wan 2.2 A14B with one DiT given (or the idle one offloaded): one expert's weights on the GPU.
    arch->denoiser.params = arch->denoiser.params * s.residentExperts / arch->denoiser.experts;
    arch->denoiser.experts = s.residentExperts;
  }
  double swapShare = 0;
  if (s.blocksToSwap.value > 0 && arch->denoiser.blocks > 0) {
    // FLUX swaps n/2 double blocks and the rest as single ones, two per double (flux_models.py
    // enable_block_swap): 2n of the 76 single-block units, n/38 of the weights; HunyuanImage 2.1 the same over 40.
    swapShare = static_cast<double>(s.blocksToSwap.value) / std::max(1, blockSwapUnits(*arch));  // the variant's
    swapShare = std::clamp(swapShare, 0.0, 0.95);
    arch->layerOffloading = true;
  }
  // The model is cast to fp8 on the CPU before it moves (load_target_model): no quantizing on the GPU.
  arch->denoiser.quantizeWholeOnGpu = false;
  arch->denoiser.transformerToGpuLast = false;  // AI Toolkit's loaders' order, not sd-scripts'
  arch->denoiser.quantizeTeOnCpu = true;
  t.arch = arch;
  t.loraInputsFp32 = false;  // both tools train under accelerate's autocast: LoRA inputs are saved in bf16
  // Without --mixed_precision there is no autocast: every activation and the VAE's work are fp32.
  if (!s.musubi && weightDtype(s) == "fp32") t.activationBytes = 4;
  t.plainAttention = s.unetPlainAttention;
  // A fine-tuned model keeps fp32 weights and grads unless full_bf16 / full_fp16 (sdxl_train.py).
  t.trainDtype = weightDtype(s);
  // musubi-tuner keeps the DiT in bf16 (fp16 with --mixed_precision fp16) whatever else is asked.
  if (s.musubi) t.trainDtype = s.mixedPrecision.value == "fp16" ? "fp16" : "bf16";
  if (s.finetune()) t.trainDtype = s.fullBf16.value ? "bf16" : s.fullFp16.value ? "fp16" : "fp32";
  // sd-scripts keeps the VAE at weight_dtype, fp32 with --no_half_vae (train_network.py, sdxl_train.py: vae_dtype),
  // whatever dtype the trained weights keep.
  if (!s.musubi) t.vaeDtype = s.noHalfVae.value ? "fp32" : weightDtype(s);
  // musubi-tuner's: --vae_dtype or the script's (FLUX.2, FLUX.1 Kontext and Z-Image fp32), a value torch does not name
  // left to the DiT's.
  if (s.musubi && isTorchDtype(s.vaeDtype.value)) t.vaeDtype = s.vaeDtype.value;
  t.quantize = s.ditFp8();
  t.qtype = "fp8_cast";  // cast (or dequantized) for every call, that copy kept for backward (memory.yaml)
  // fp8_base also casts FLUX's T5-XXL; fp8_base_unet leaves the text encoders in bf16.
  t.quantizeTe = (s.isFlux() && s.fp8Base.value && !s.fp8BaseUnet.value) || s.fp8TextEncoder;
  t.qtypeTe = "float8";
  // musubi-tuner's --fp8_scaled quantizes the blocks' Linears (FP8_OPTIMIZATION_TARGET_KEYS); --fp8_base alone casts the
  // whole DiT to float8 (trainer_base.py load_transformer: dit_weight_dtype), as sd-scripts' does.
  t.fp8BlocksOnly = s.musubi && s.fp8Scaled.value;
  t.layerOffloading = swapShare > 0;
  t.offloadTransformer = swapShare;
  t.swapsBlocksInPlace = true;
  t.offloadTextEncoder = 0;
  t.cacheTextEmbeddings = s.cacheTextEncoderOutputs.value;
  t.unloadTextEncoder = s.cacheTextEncoderOutputs.value;
  t.textEncoderOnCpu = s.textEncoderCpu.value;
  // LoRA on the text encoders too, unless they are cached or --network_train_unet_only (the DiT
  // scripts train only the DiT by default); a fine-tune's as its script decides (SdSetup::finetuneTextEncoders).
  const bool unetFamily = s.arch->arch == "sd1" || s.arch->arch == "sd2" || s.arch->arch == "sdxl";
  t.trainTextEncoder = unetFamily && (s.finetune() ? s.finetuneTextEncoders.value
                                                   : !s.networkTrainUnetOnly.value && !s.cacheTextEncoderOutputs.value);
  // train_network.py's checkpointing workaround: a fine-tune trains the embedding tables with the rest.
  t.textEncoderEmbeddingGrads = !s.finetune();
  t.fullFinetune = s.finetune();
  // sd-scripts casts the network to the weight dtype (train_network.py); musubi-tuner takes no such flag.
  if (!s.musubi && !s.finetune() && (s.fullBf16.value || s.fullFp16.value)) t.adapterBytes = 2;
  // A fine-tune casts the frozen text encoders to the mixed precision's dtype (sdxl_train.py, fine_tune.py).
  if (s.finetune()) t.frozenTextEncoderDtype = weightDtype(s);
  t.networkType = s.lokr ? "lokr" : "lora";
  t.mergedWeightCopies = s.mergedWeightCopies;
  t.rank = s.networkDim.value;
  t.optimizer = optimizerName(s.optimizer.value);
  t.fusedBackward = s.fusedBackwardPass.value;
  t.gradientCheckpointing = s.gradientCheckpointing.value;
  t.trainBatch = s.trainBatch.value;
  DatasetShape shape;
  shape.resolution = s.resolution.value;
  shape.batch = s.trainBatch.value;
  shape.cachesLatents = s.cacheLatents.value;
  shape.frames = s.frames;
  t.datasets = {shape};
  t.baselineSample = s.sampleAtFirst.value && (s.samplesDuringTraining || s.sampleAtFirst.value);
  t.periodicSample = s.samplesDuringTraining;
  t.sampleWidth = t.sampleHeight = 512;  // the prompt file's default size (--w / --h)
  t.guidanceScale = 7;
  return t;
}

Estimate estimateSdScripts(const SdSetup& s, const MemoryModel& model, const GpuTarget& gpu, Detail detail) {
  const bool explain = detail == Detail::Explained;
  const TrainingSetup t = trainingSetupFor(s);
  Estimate e = estimate(t, model, gpu, detail);
  // sd-scripts loads every model on the CPU and moves them when needed: caching first (the VAE, then the
  // text encoders, each alone on the GPU), then accelerate.prepare moves the denoiser for training. What
  // is on the GPU at load is what training keeps there, before any activation.
  std::vector<PhaseEstimate> phases;
  PhaseEstimate load{Phase::Load};
  for (const auto& phase : e.phases) {
    if (phase.phase != Phase::TrainStep) continue;
    for (const auto& c : phase.components) {
      if (c.term == Term::Weights || c.term == Term::Fixed) load.components.push_back(c);
    }
  }
  // --lowram loads every model straight onto the GPU (train_util._load_target_model), and caching the text
  // encoders then leaves the denoiser and VAE there (sdxl_train_network.py).
  const auto componentNamed = [&](std::string_view name) -> std::optional<Component> {
    for (const auto& phase : e.phases) {
      for (const auto& c : phase.components) {
        if (c.name == name) return c;
      }
    }
    return std::nullopt;
  };
  if (s.lowram.value) {
    for (const char* name : {"text encoder weights", "VAE weights"}) {
      const bool present = std::any_of(load.components.begin(), load.components.end(), [&](const Component& c) { return c.name == name; });
      if (auto c = componentNamed(name); c && !present) {
        if (explain) c->how += " (--lowram: loaded onto the GPU)";
        load.components.push_back(*c);
      }
    }
    for (auto& phase : e.phases) {
      if (phase.phase != Phase::TeCache) continue;
      for (const char* name : {"transformer weights", "VAE weights"}) {
        if (auto c = componentNamed(name)) {
          if (explain) c->how += " (--lowram: left on the GPU while the text encoders run)";
          phase.components.push_back(*c);
        }
      }
      phase.range.clear();
      totalPhase(phase, model, e.coarse, detail);
    }
  }
  totalPhase(load, model, e.coarse, detail);
  for (auto& phase : e.phases) {
    if (phase.phase == Phase::LatentCache || phase.phase == Phase::TeCache) phases.push_back(std::move(phase));
  }
  phases.push_back(std::move(load));
  for (auto& phase : e.phases) {
    if (phase.phase == Phase::BaselineSample || phase.phase == Phase::TrainStep || phase.phase == Phase::Sample) phases.push_back(std::move(phase));
  }
  // musubi-tuner's caching scripts are processes of their own: only their pass runs.
  if (s.script && s.script->caches()) {
    const Phase only = s.script->role == TrainerRole::CacheLatents ? Phase::LatentCache : Phase::TeCache;
    std::erase_if(phases, [&](const PhaseEstimate& p) { return p.phase != only; });
  } else if (s.musubi) {
    std::erase_if(phases, [](const PhaseEstimate& p) { return p.phase == Phase::LatentCache || p.phase == Phase::TeCache; });
  }
  e.phases = std::move(phases);
  // An older release whose fp8 kept some layers in bf16 (rules: fp8_changes): the range covers it.
  if (t.quantize && s.script) {
    for (const auto& change : s.script->fp8Changes) {
      widenForOlderRelease(e, model, change.why, [&](Phase, Component& c) {
        if (c.name == "transformer weights") c.bytes += change.bf16Params * (2.0 - 1.0) * (1.0 - t.offloadTransformer);
      });
    }
  }
  // An older release that placed the U-Net and the text encoder in fp32 (rules: fp32_prepare): at prepare both were on the
  // GPU as loaded, and the text encoder stayed so. A weight already in fp32 is unchanged; fp8 came later.
  if (s.script && !t.quantize) {
    const double toFp32 = 4.0 / dtypeBytesPerParam(model, weightDtype(s));
    for (const auto& change : s.script->fp32Prepares) {
      widenForOlderRelease(e, model, change.why, [&](Phase phase, Component& c) {
        if (c.name == "text encoder weights" || (phase == Phase::Load && c.name == "transformer weights")) c.bytes *= toFp32;
      });
    }
  }
  e.assumes = s.musubi ? "musubi-tuner at 30c658c (2026-06-24), on the training arithmetic of the AI Toolkit estimate"
                       : "sd-scripts at 48d368f (2026-02-16), on the training arithmetic of the AI Toolkit estimate";
  concludeEstimate(e);
  return e;
}

}  // namespace oomlint
