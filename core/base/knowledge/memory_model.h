// The physical constants of the memory model (rules/memory.yaml): bytes per parameter of each
// weight format and optimizer, activation coefficients, VAE working memory, fixed overheads.
// Every figure comes from the data, which its schema (rules/schema/memory.schema.yaml) requires: the
// members are zero until loaded, with no C++ value to fall back on when a key is misspelt.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/knowledge/knowledge_text.h"

namespace oomlint {

// A qtype as written, without an accuracy-recovery adapter's `|path` ("uint4|ostris/…" → uint4); empty stays empty.
inline std::string_view qtypeName(std::string_view qtype) { return qtype.substr(0, qtype.find('|')); }

// A qtype's format: its name, qfloat8 (AI Toolkit's default) when none is written.
inline std::string qtypeFormat(std::string_view qtype) {
  const std::string_view bare = qtypeName(qtype);
  return bare.empty() ? "qfloat8" : std::string(bare);
}

struct WeightFormat {
  KnowledgeText name;
  KnowledgeTexts aliases;
  double bytesPerParam = 0;
  double fullPrecisionFraction = 0;  // left in bf16 by the quantizer
  // The training forward runs F.linear on the weight dequantized to bf16, which autograd keeps for the
  // backward (AI Toolkit's UIntX, ConvRot, NVFP4 and Orbit backends): one block's worth under checkpointing.
  bool savesDequantizedWeight = false;
};

// Each struct's fields, for the rules compiler's tables (knowledge_tape.h): a field left out of
// its list is not compiled in, and reads as its default at run time.
template <class V> void fields(V& v, WeightFormat& x) {
  v(x.name, x.aliases, x.bytesPerParam, x.fullPrecisionFraction, x.savesDequantizedWeight);
}

struct OptimizerState {
  KnowledgeText name;
  bool prefix = false;
  double stateBytesPerParam = 0;       // per element of every trained tensor
  bool factoredSecondMoment = false;   // plus a row and a column of fp32 figures per trained matrix
  bool freesGradsInBackward = false;   // the step runs in the backward pass, freeing each grad at once
  bool stateInParamDtype = false;      // its states take the trained parameters' dtype (stateBytesPerParam: fp32's)
};

template <class V> void fields(V& v, OptimizerState& x) {
  v(x.name, x.prefix, x.stateBytesPerParam, x.factoredSecondMoment, x.freesGradsInBackward, x.stateInParamDtype);
}

struct VaeConstants {
  KnowledgeText family;
  double decodeK = 0;
  double encodeK = 0;
  int videoFramesInFlight = 0;
  // A video VAE's figures for a single image (Wan 2.1's: 2900 / 1450 against 6500 / 6000); 0: the video's.
  double imageDecodeK = 0;
  double imageEncodeK = 0;
  // Whole RGB clips a pipeline keeps on the GPU beside the decode (diffusers' video pipelines), not in K.
  int rgbClipCopies = 0;
  // A decoder without a frame cache that decodes every frame of its call at once (HunyuanVideo's): the census
  // floor per output frame-pixel of the call; 0: not measured.
  double allFramesDecodeFloorK = 0;
  // A trainer's image decode from the decoder's structure: what a GPU needs at least (measured under a memory cap);
  // 0: decodeK / imageDecodeK, a planner's reservation.
  double imageDecodeFloorK = 0;
  // The same for an image encode from the encoder's structure (a trainer's latent caching or in-step encode).
  double imageEncodeFloorK = 0;
  // The edge in output pixels of the tiles a tiled decode works on (diffusers' tile_sample_min_*); 0: not
  // stated, which the loader allows only for a family no tiling architecture uses.
  int tilePx = 0;
  // Where a tiled decode starts its next tile (tile_sample_stride_*): it keeps every decoded tile, overlaps and all,
  // until they are blended; 0: not stated (the tiles are then not counted).
  int tileStridePx = 0;
  // A 3D-convolution coder run in bf16/fp16 without cuDNN (PyTorch 2.9.0 routes those convolutions around cuDNN >= 9.8,
  // 2.9.1 unless it is >= 9.15: slow_conv3d): the input channels of its widest full-resolution 3×3×3 convolution; 0: no
  // 3D convolutions, or not derived.
  int vol2colChannels = 0;
  // A VAE that tiles every pass itself, whatever the trainer asks (MiniMax-H3's: 256-px tiles on by default).
  bool alwaysTiles = false;
  // A decoder whose pixels come out in this many bytes whatever its dtype (MiniMax-H3's proj_out runs in float32):
  // the RGB clips count them; 0: the VAE's element size.
  int outputBytes = 0;
  // A decoder that decodes this many frames even for one image (MiniMax-H3's ViT decodes a lone latent as the first of a
  // two-latent clip: 7 latent frames, 28 pixel frames); 0: one.
  int imageDecodedFrames = 0;

  // The floor of one image pass from the coder's structure, 0 where not measured.
  double imageFloorK(bool decode) const { return decode ? imageDecodeFloorK : imageEncodeFloorK; }

  // Bytes per pixel per element byte for one pass over `frames` frames.
  double k(bool decode, int frames) const {
    const double image = decode ? imageDecodeK : imageEncodeK;
    return frames <= 1 && image > 0 ? image : decode ? decodeK : encodeK;
  }
};

template <class V> void fields(V& v, VaeConstants& x) {
  v(x.family, x.decodeK, x.encodeK, x.videoFramesInFlight, x.imageDecodeK, x.imageEncodeK, x.rgbClipCopies, x.allFramesDecodeFloorK,
    x.imageDecodeFloorK, x.imageEncodeFloorK, x.tilePx, x.tileStridePx, x.vol2colChannels, x.alwaysTiles, x.outputBytes,
    x.imageDecodedFrames);
}

// What the host-RAM estimate cannot read from a config (rules/memory.yaml host_ram).
struct HostRamConstants {
  double processBaselineBytes = 0;  // the trainer process before any model is loaded
  double systemReserveBytes = 0;    // the kernel, a desktop and the UI beside it
  KnowledgeText checkpointDtype;      // the dtype checkpoints are published in
  double checkpointShardBytes = 0;  // one shard of a sharded checkpoint
  double pinnedRounding = 0;        // pinned blocks round up to a power of two: the mean factor
  double workerBytes = 0;           // one data-loader worker's own memory
  double decodedBytesPerPixel = 0;  // a decoded training image
  std::vector<KnowledgeText> fp32ModuleInit;  // architectures whose loader builds the module in fp32 first
};

template <class V> void fields(V& v, HostRamConstants& x) { v(x.processBaselineBytes, x.systemReserveBytes, x.checkpointDtype, x.checkpointShardBytes, x.pinnedRounding, x.workerBytes, x.decodedBytesPerPixel, x.fp32ModuleInit); }

// Activation coefficients of one block structure, bytes per token per hidden channel (UNets: per latent
// pixel), from the CPU census of the real block graph (scripts/census; memory.yaml activations.families).
// A family names what the census measured; the loader fills the rest from memory.yaml's defaults.
struct ActivationCoefficients {
  KnowledgeText family;                          // empty: the defaults
  double blockBytesPerTokenChannel = 0;        // what one block keeps for backward, no checkpointing
  double recomputeBytesPerTokenChannel = 0;    // peak of one block's forward and backward (recomputed block)
  double inferenceBytesPerTokenChannel = 0;    // one block's forward without grad, plain model
  double loraInferenceBytesPerTokenChannel = 0;  // the same with AI Toolkit's fp32 LoRA path active
  double unetBytesPerLatentPixelCheckpointed = 0;
  double unetBytesPerLatentPixelFull = 0;
  double unetInferenceBytesPerLatentPixel = 0;   // a forward without grad, LoRA path active
  // The same blocks under autocast (sd-scripts, musubi-tuner): the adapted Linears save their input in bf16.
  double autocastBlockBytesPerTokenChannel = 0;
  double autocastRecomputeBytesPerTokenChannel = 0;
  double autocastLoraInferenceBytesPerTokenChannel = 0;
  // What a block with no adapted Linear keeps for backward, as a share of an adapted one's (the census's
  // saved_frozen / saved): the low end when network_kwargs leaves layers out (OL420). Not applied to the UNets.
  double frozenBlockShare = 1;
  bool measuredOnGpu = false;  // its LoRA-path figures (block, recompute, LoRA sampling) came from a GPU run
  // ComfyUI's own implementation of the block in inference, where its census differs from the trainers' graph; 0: none.
  double comfyUiInferenceBytesPerTokenChannel = 0;
  double comfyUiOlderInferenceBytesPerTokenChannel = 0;  // older releases' heavier block (the range's top); 0: none
  KnowledgeText comfyUiOlderReleases{};                     // which releases, for the range's reason
  KnowledgeText comfyUiOlderUntil{};                        // the first release with the lighter block ("0.3.60")
  bool comfyUiOlderNeedsNoiseMask = false;  // heavier only under a noise mask (LTX-2's per-token timesteps)

  // The LoRA path's figures for a trainer whose adapted Linears keep fp32 inputs (AI Toolkit) or run under
  // autocast (bf16 inputs: sd-scripts, musubi-tuner).
  struct LoraPath {
    double block, recompute, inference;
  };
  LoraPath loraPath(bool fp32Inputs) const {
    if (fp32Inputs) return {blockBytesPerTokenChannel, recomputeBytesPerTokenChannel, loraInferenceBytesPerTokenChannel};
    return {autocastBlockBytesPerTokenChannel, autocastRecomputeBytesPerTokenChannel, autocastLoraInferenceBytesPerTokenChannel};
  }
};

template <class V> void fields(V& v, ActivationCoefficients& x) { v(x.family, x.blockBytesPerTokenChannel, x.recomputeBytesPerTokenChannel, x.inferenceBytesPerTokenChannel, x.loraInferenceBytesPerTokenChannel, x.unetBytesPerLatentPixelCheckpointed, x.unetBytesPerLatentPixelFull, x.unetInferenceBytesPerLatentPixel, x.autocastBlockBytesPerTokenChannel, x.autocastRecomputeBytesPerTokenChannel, x.autocastLoraInferenceBytesPerTokenChannel, x.frozenBlockShare, x.measuredOnGpu, x.comfyUiInferenceBytesPerTokenChannel, x.comfyUiOlderInferenceBytesPerTokenChannel, x.comfyUiOlderReleases, x.comfyUiOlderUntil, x.comfyUiOlderNeedsNoiseMask); }

struct MemoryModel {
  std::vector<WeightFormat> weightFormats;
  std::vector<OptimizerState> optimizers;
  std::vector<VaeConstants> vaes;
  std::vector<std::pair<KnowledgeText, double>> textEncoderEmbeddings;  // kept in bf16 when the encoder is quantized
  double araFractionOfBase = 0;  // accuracy-recovery adapter weights, as a share of base params
  // trainable
  double loraWeightBytes = 0;
  double loraGradBytes = 0;
  bool emaResident = false;  // false: the trainer never builds its EMA (use_ema costs nothing)
  double fusedStepFp32Copies = 0;  // a step fused into backward: fp32 working copies of the tensor it updates
  // activations
  // Attention that materialises its score matrices, in matrices of one layer (scripts/census/plain_attention.py): kept
  // for backward, added by the layer's backward beside that, held by a forward under no_grad.
  double plainAttentionSavedMatrices = 0, plainAttentionBackwardMatrices = 0, plainAttentionInferenceMatrices = 0;
  double checkpointBytesPerTokenChannel = 0;
  double blockBytesPerTokenChannel = 0;
  double activationMultiplier = 0;
  double inferenceBytesPerTokenChannel = 0;
  double unetBytesPerLatentPixelCheckpointed = 0;
  double unetBytesPerLatentPixelFull = 0;
  double recomputeBytesPerTokenChannel = 0;
  double loraInferenceBytesPerTokenChannel = 0;
  double unetInferenceBytesPerLatentPixel = 0;
  double autocastBlockBytesPerTokenChannel = 0;
  double autocastRecomputeBytesPerTokenChannel = 0;
  double autocastLoraInferenceBytesPerTokenChannel = 0;
  double frozenBlockShare = 1;
  std::vector<ActivationCoefficients> activationFamilies;  // complete: absent figures are the defaults above
  // overheads
  double cudaContextBytes = 0;
  double allocatorFraction = 0;
  int layerOffloadRingLinears = 0;
  // uncertainty, as fractions of each term
  double uncertaintyWeights = 0;
  double uncertaintyTrainable = 0;
  double uncertaintyActivations = 0;             // CPU-measured figures and priors
  double uncertaintyActivationsMeasuredOnGpu = 0;  // a family's figures measured on a GPU
  double uncertaintyActivationsUnmeasured = 0;     // a transformer without a census of its own block
  double uncertaintyVae = 0;       // below; the VAE constants are planners' maxima
  double uncertaintyVaeAbove = 0;  // above
  double uncertaintyFixedFraction = 0;  // of the fixed terms (CUDA context)
  double uncertaintyCoarseExtra = 0;
  HostRamConstants host;

  // A dtype spelling or a qtype (the part before '|'); null when unknown.
  const WeightFormat* format(std::string_view name) const;
  const OptimizerState* optimizer(std::string_view name) const;
  const VaeConstants* vae(std::string_view family) const;
  // The coefficients of an activation family (architectures.yaml denoiser.activation_family); the defaults
  // when `family` is empty or unknown.
  ActivationCoefficients activations(std::string_view family) const;
  double embeddingParams(std::string_view textEncoder) const;
};

template <class V> void fields(V& v, MemoryModel& x) { v(x.weightFormats, x.optimizers, x.vaes, x.textEncoderEmbeddings, x.araFractionOfBase, x.loraWeightBytes, x.loraGradBytes, x.emaResident, x.fusedStepFp32Copies, x.plainAttentionSavedMatrices, x.plainAttentionBackwardMatrices, x.plainAttentionInferenceMatrices, x.checkpointBytesPerTokenChannel, x.blockBytesPerTokenChannel, x.activationMultiplier, x.inferenceBytesPerTokenChannel, x.unetBytesPerLatentPixelCheckpointed, x.unetBytesPerLatentPixelFull, x.recomputeBytesPerTokenChannel, x.loraInferenceBytesPerTokenChannel, x.unetInferenceBytesPerLatentPixel, x.autocastBlockBytesPerTokenChannel, x.autocastRecomputeBytesPerTokenChannel, x.autocastLoraInferenceBytesPerTokenChannel, x.frozenBlockShare, x.activationFamilies, x.cudaContextBytes, x.allocatorFraction, x.layerOffloadRingLinears, x.uncertaintyWeights, x.uncertaintyTrainable, x.uncertaintyActivations, x.uncertaintyActivationsMeasuredOnGpu, x.uncertaintyActivationsUnmeasured, x.uncertaintyVae, x.uncertaintyVaeAbove, x.uncertaintyFixedFraction, x.uncertaintyCoarseExtra, x.host); }

}  // namespace oomlint
