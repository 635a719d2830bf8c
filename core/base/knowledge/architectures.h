// AI Toolkit's model architectures (rules/ai-toolkit/architectures.yaml).
#pragma once

#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/knowledge/knowledge_text.h"
#include "base/knowledge/lazy_part.h"

namespace oomlint {

struct FrameGrid {
  int multiple = 1;
  int offset = 0;
  bool contains(long frames) const { return frames >= offset && (frames - offset) % multiple == 0; }
  std::string describe() const;  // "4n+1"
  long nearestBelow(long frames) const;
};

// Each struct's fields, for the rules compiler's tables (knowledge_tape.h): a field left out of
// its list is not compiled in, and reads as its default at run time.
template <class V> void fields(V& v, FrameGrid& x) { v(x.multiple, x.offset); }

// What the VRAM estimator needs to know about a model family (rules/ai-toolkit/architectures.yaml).
struct Denoiser {
  double params = 0;            // all experts together
  int experts = 1;
  int blocks = 0;               // checkpointed blocks; 0 for UNets
  int hidden = 0;
  int heads = 0;
  double mlpRatio = 4;
  int patch = 1;
  int textTokens = 0;
  bool jointAttention = false;
  double largestBlockParams = 0;
  double loraParamsPerRank = 0;
  double controlTokenFactor = 0;
  // A control image's own size cap, where the trainer encodes it at its raw size up to this many pixels instead of
  // at the target's (FLUX.2: 1024², encode_image_refs); 0: at the target's size. Its tokens are then the cap's.
  double controlMaxPixels = 0;
  bool cfgInSampling = false;
  bool cfgBatched = true;  // false: the unconditional pass runs after the conditional one, not beside it
  // A boolean attention mask SDPA makes an additive bias of, in the compute dtype, in every attention call:
  // "built_per_forward": each forward builds [batch, heads, S, S] (float32, then int32, then bool; Chroma's src/model.py);
  // "expanded_per_call": a key-padding mask expanded to [batch, heads, image tokens, S] in each call (PRX's
  // transformer_prx.py); empty: none, or one SDPA broadcasts (a key-padding mask).
  KnowledgeText attentionMask;
  // An audio model's tokens: per second of audio (its latent rate over its patch), and the clip length planned for, which
  // no config states (the dataset's longest clip sets it). 0: tokens come from the image's size.
  double tokensPerSecond = 0;
  double planningSeconds = 0;
  bool quantizeWholeOnGpu = false;
  double residentBf16Params = 0;       // beside the transformer in bf16, never quantized nor offloaded
  bool quantizeTeOnCpu = false;        // the text encoder is quantized before it moves to the GPU
  // The loader quantizes the transformer one block at a time on the GPU (toolkit/util/quantize.py quantize_model) and
  // leaves it on the CPU while the text encoder is loaded and quantized; the pipe moves it to the GPU after.
  bool transformerToGpuLast = false;
  // With low_vram, after quantizing the blocks one at a time, the loader moves the whole transformer (its blocks
  // quantized) to the GPU to quantize the params outside them, these many, still bf16 (HiDream's "quantizing extras").
  double extrasQuantizedOnGpuParams = 0;
  bool teQtypeFromModel = false;       // the loader quantizes the text encoder with model.qtype, not qtype_te
  KnowledgeText activationFamily;  // memory.yaml activations.families entry; empty: the defaults
  double factoredStateBytesPerParam = 0;  // Adafactor's row/column state on a full fine-tune; 0: 8 / hidden
  double largestTensorParams = 0;         // the largest weight tensor; 0: largestLinearParams()
  // What a trainer's blocks_to_swap counts, where not one block each: sd-scripts swaps n/2 double-stream blocks and the
  // rest as pairs of single-stream ones (HunyuanImage 2.1: 20 + 40/2 = 40); 0: blocks.
  int swapUnits = 0;
  // A head after the blocks that works per output pixel (Chroma Radiance's NeRF blocks: a per-patch MLP whose weights
  // the transformer's output generates): the CPU census's bytes per pixel of one image in bf16, at its backward in
  // training (the head's checkpointed blocks' inputs, one block recomputed, its gradients) and in a sampling forward.
  // 0: no such head.
  double pixelHeadTrainingBytesPerPixel = 0;
  double pixelHeadSamplingBytesPerPixel = 0;
  // Blocks that run over the text tokens before the main ones, adapted by the LoRA and outside gradient checkpointing
  // (Krea 2's text-fusion transformer): their width, and their passes per sample (2 blocks over each of 12 selected
  // encoder layers, then 2 more: 26). Each pass keeps what it saved until the backward. 0: none.
  int textFusionHidden = 0;
  int textFusionPasses = 0;

  // A UNet's self-attention layers by level (the latent grid divided by `downsample`), for attention that materialises its
  // score matrices (sd-scripts without an attention flag). Empty: not a UNet, or not known.
  struct SelfAttentionLevel {
    int downsample = 1;
    int layers = 0;
    int heads = 0;
  };
  std::vector<SelfAttentionLevel> selfAttention;

  // What gradient checkpointing recomputes at once, where the data gives it (a UNet's "block" is a whole level, each of
  // whose ResnetBlock2D and Transformer2DModel is checkpointed on its own), else the largest block.
  double recomputedUnitParams = 0;
  double recomputedUnit() const { return recomputedUnitParams > 0 ? recomputedUnitParams : largestBlockParams; }

  // One Linear weight of the largest block, about a sixth of it (attention's q, k, v, out and the MLP's two
  // projections): what a layer-offloading slot holds.
  double largestLinearParams() const { return largestBlockParams / 6.0; }
  // What a step fused into the backward pass works on at once: the largest weight, where the data gives it (a
  // UNet's "block" is a whole level), else the largest block's Linear.
  double largestTensor() const { return largestTensorParams > 0 ? largestTensorParams : largestLinearParams(); }
};

template <class V> void fields(V& v, Denoiser::SelfAttentionLevel& x) { v(x.downsample, x.layers, x.heads); }
template <class V> void fields(V& v, Denoiser& x) { v(x.params, x.experts, x.blocks, x.hidden, x.heads, x.mlpRatio, x.patch, x.textTokens, x.jointAttention, x.largestBlockParams, x.loraParamsPerRank, x.controlTokenFactor, x.controlMaxPixels, x.cfgInSampling, x.cfgBatched, x.attentionMask, x.tokensPerSecond, x.planningSeconds, x.quantizeWholeOnGpu, x.residentBf16Params, x.quantizeTeOnCpu, x.transformerToGpuLast, x.activationFamily, x.factoredStateBytesPerParam, x.largestTensorParams, x.swapUnits, x.teQtypeFromModel, x.extrasQuantizedOnGpuParams, x.pixelHeadTrainingBytesPerPixel, x.pixelHeadSamplingBytesPerPixel, x.textFusionHidden, x.textFusionPasses, x.recomputedUnitParams, x.selfAttention); }

struct TextEncoder {
  KnowledgeText name;
  double params = 0;
  double loraParamsPerRank = 0;  // a LoRA on its attention and MLP Linears (when the text encoder trains)
  bool quantizedBeforeTransformer = false;  // the loader quantizes it on the GPU before the transformer arrives
  bool neverQuantized = false;              // quantize_te leaves it in the training dtype (the CLIP encoders)
};

template <class V> void fields(V& v, TextEncoder& x) {
  v(x.name, x.params, x.loraParamsPerRank, x.quantizedBeforeTransformer, x.neverQuantized);
}

struct Vae {
  KnowledgeText family;
  double params = 0;
  int latentChannels = 4;
  int spatial = 8;
  int temporal = 1;
  // AI Toolkit samples through a diffusers pipeline that decodes an fp16 VAE in fp32 (force_upcast: SDXL, AuraFlow).
  bool upcastsFp16SampleDecode = false;
};

template <class V> void fields(V& v, Vae& x) { v(x.family, x.params, x.latentChannels, x.spatial, x.temporal, x.upcastsFp16SampleDecode); }

// A smaller model sharing an arch string (Wan 2.1 1.3B under wan21), with the dimensions that differ.
struct ArchVariant {
  std::vector<KnowledgeText> match;  // substrings of name_or_path or the `arch:variant` suffix, lowercase
  KnowledgeText label;
  Denoiser denoiser;
};

template <class V> void fields(V& v, ArchVariant& x) { v(x.match, x.label, x.denoiser); }

struct Architecture {
  KnowledgeText arch;
  KnowledgeTexts aliases;
  KnowledgeText legacyFlag;
  KnowledgeText label;
  KnowledgeText kind;  // image | video | edit | audio
  int bucketDivisibility = 8;
  std::optional<FrameGrid> frameGrid;
  bool fluxFamily = false;
  bool wanFamily = false;
  bool layerOffloading = false;
  bool lowVram = false;
  bool cannotUnloadTe = false;
  // A family another trainer trains but AI Toolkit has no class for (HunyuanVideo, FramePack):
  // model.arch never names it; sd-scripts' and musubi-tuner's script tables do.
  bool trainerOnly = false;

  Denoiser denoiser;
  std::vector<TextEncoder> textEncoders;
  Vae vae;
  std::vector<KnowledgeText> lowVramKinds;  // the schema's low_vram_kind values (quantize_on_cpu, park_modules, …)
  KnowledgeText lowVramTilesSince;          // "fe824871 (2026-07-10)": tiled_vae only from that commit; empty: always
  std::vector<ArchVariant> variants;
  bool coarse = true;                     // dimensions not reliable: the estimate widens its uncertainty
  // The network_kwargs.ignore_if_contains of AI Toolkit's UI preset, which denoiser.loraParamsPerRank already
  // applies (HiDream's MoE experts); a config's own filters beyond it are not costed (OL420).
  std::vector<KnowledgeText> loraIgnoreIfContains;

  bool lowVramDoes(std::string_view kind) const;
  double textEncoderParams() const;
  // The variant whose match appears in `model` (name_or_path and arch as written), or nullptr.
  const ArchVariant* variantFor(std::string_view model) const;

  bool isVideo() const { return kind == "video"; }
};

template <class V> void fields(V& v, Architecture& x) { v(x.arch, x.aliases, x.legacyFlag, x.label, x.kind, x.bucketDivisibility, x.frameGrid, x.fluxFamily, x.wanFamily, x.layerOffloading, x.lowVram, x.cannotUnloadTe, x.trainerOnly, x.denoiser, x.textEncoders, x.vae, x.lowVramKinds, x.lowVramTilesSince, x.variants, x.coarse, x.loraIgnoreIfContains); }

// One architecture as start-up reads it: what finds it (its id, aliases and legacy flag), its dimensions on first use.
// A job reads one of the sixty; reading them all was nearly half of a check's start-up read.
struct ArchitectureEntry {
  KnowledgeText arch;
  KnowledgeTexts aliases;
  KnowledgeText legacyFlag;
  bool trainerOnly = false;
  LazyPart<Architecture> details;  // the whole entry, these four fields included
};

template <class V> void fields(V& v, ArchitectureEntry& x) { v(x.arch, x.aliases, x.legacyFlag, x.trainerOnly, x.details); }

class Architectures {
 public:
  template <class V> friend void fields(V& v, Architectures& x);  // knowledge_tape.h
  // `name` as written in model.arch: anything from ':' on is stripped, as AI Toolkit does. Only AI
  // Toolkit's own architectures (not trainerOnly) answer, here and in names().
  const Architecture* find(std::string_view name) const;
  // Any entry by its arch id, trainer-only ones included: what other trainers' script tables name.
  const Architecture* byId(std::string_view arch) const;
  const Architecture* byLegacyFlag(std::string_view flag) const;
  std::vector<std::string> names() const;
  // In the order architectures.yaml lists them (a deque: a LazyPart does not move).
  const std::deque<ArchitectureEntry>& entries() const { return entries_; }
  void add(Architecture arch);
  // Whose behaviour the estimates follow: "AI Toolkit at 27a03a9 (2026-08-21)".
  KnowledgeText assumes() const { return assumes_; }
  void setAssumes(KnowledgeText assumes) { assumes_ = assumes; }

 private:
  std::deque<ArchitectureEntry> entries_;
  KnowledgeText assumes_;
};

template <class V> void fields(V& v, Architectures& x) { v(x.entries_, x.assumes_); }

}  // namespace oomlint
