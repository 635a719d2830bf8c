// What oomlint knows about image generation in AUTOMATIC1111's WebUI, Forge and ComfyUI
// (rules/webui.yaml): launch flags and their memory effects, model families, attention backends,
// ControlNet models and each tool's offloading constants.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/knowledge/knowledge_text.h"

namespace oomlint {

enum class WebUiTool { A1111, Forge, ComfyUi };
std::string_view toString(WebUiTool tool);       // "a1111", "forge", "comfyui"
std::string_view displayName(WebUiTool tool);    // "AUTOMATIC1111", "Forge", "ComfyUI"
bool parseWebUiTool(std::string_view text, WebUiTool& tool);

// What a launch flag switches in the memory model: rules/webui.yaml's `effect`, one value per name of
// the schema's flag_effect enum (a misspelt effect fails the build; the loader rejects one this list lacks).
enum class FlagEffect {
  None,           // accepted, no memory effect
  Medvram,        // A1111: one of text encoder / UNet / VAE on the GPU at a time
  MedvramSdxl,    // --medvram for SDXL models only
  Lowvram,        // A1111: UNet blocks one at a time; ComfyUI: low-VRAM loading, text encoders on the CPU
  Attention,      // selects the attention backend named in `backend`
  NoHalf,         // fp32 weights
  PrecisionFull,  // fp32 weights when its value is `full`
  AllFp32,        // fp32 everywhere
  NoHalfVae,      // fp32 VAE
  VaeFp32,
  VaeFp16,
  VaeBf16,
  Upcast,         // fp16 weights with upcast sampling math
  ForgeLowVram,   // Forge's low-VRAM loading
  ForgeNoVram,    // weights streamed from system RAM
  ComfyNoVram,
  ComfyHighVram,  // models kept in VRAM
  ComfyGpuOnly,
  ComfyDynamicVram,  // ComfyUI's dynamic VRAM (comfy-aimdo) forced on: weights paged a layer at a time, evicted on demand
  ComfyDisableDynamicVram,  // the memory manager before v0.16.0, where dynamic VRAM is the default
  ForgeOffload,   // unload every model after use
  UnetFp8,
  Unet16Bit,      // --fp16-unet / --bf16-unet, Forge's --unet-in-fp16 / -bf16: 16-bit weights where the loader leaves the dtype
  ComfyFp8Compute,  // --supports-fp8-compute: ComfyUI keeps an fp8 file in fp8 whatever the card
  ForceFp16,      // --force-fp16 / --all-in-fp16: should_use_fp16 holds on any card (no fp32 card rule)
  TextEncoderFp8,
  VaeCpu,
  ComfyReserve,   // GB kept free (its value)
  Cpu,            // everything, or the named modules, on the CPU
};
std::string_view toString(FlagEffect effect);  // the data's spelling: "medvram_sdxl"
std::optional<FlagEffect> parseFlagEffect(std::string_view text);

struct WebUiFlag {
  KnowledgeText name;                  // "--medvram"
  std::vector<KnowledgeText> tools;    // where it is a real flag
  std::vector<KnowledgeText> ignoredBy;  // tools that accept it and do nothing
  bool takesValue = false;
  FlagEffect effect = FlagEffect::None;
  KnowledgeText backend;               // the attention backend of an Attention effect ("xformers")
  KnowledgeText deprecated;            // why it is a no-op now; empty when it is not
  bool existsIn(WebUiTool tool) const;
  bool ignoredIn(WebUiTool tool) const;
};

// Each struct's fields, for the rules compiler's tables (knowledge_tape.h): a field left out of
// its list is not compiled in, and reads as its default at run time.
template <class V> void fields(V& v, WebUiFlag& x) { v(x.name, x.tools, x.ignoredBy, x.takesValue, x.effect, x.backend, x.deprecated); }

struct AttentionBackend {
  KnowledgeText id;
  KnowledgeText label;
  double scoreFactor = 0;  // live bytes, in fp16 score matrices at the largest attention layer
  bool adaptive = false;   // slices itself to the free memory
  double needFactor = 0;   // adaptive only: what it believes it needs, in score matrices
  int maxSlices = 0;       // adaptive only
  bool patchesVae = false;
  bool comfyGuessByDtype = false;  // ComfyUI's memory guess under it counts the dtype's bytes (xFormers, PyTorch attention)
  bool fp32Scores = false;         // the score matrices are float32 whatever the compute dtype (PyTorch's math kernel)
};

template <class V> void fields(V& v, AttentionBackend& x) { v(x.id, x.label, x.scoreFactor, x.adaptive, x.needFactor, x.maxSlices, x.patchesVae, x.comfyGuessByDtype, x.fp32Scores); }

struct GenerationFamily {
  KnowledgeText id;
  std::vector<KnowledgeText> aliases;
  KnowledgeText arch;  // rules/ai-toolkit/architectures.yaml
  int defaultSize = 0;  // the image side when nothing says it (the base checkpoints' training resolution)
  std::vector<KnowledgeText> tools;
  int attentionHeads = 0;       // 0: no UNet self-attention figure (transformers: attention is fused)
  int attentionDownsample = 1;  // pixels per token side at the largest attention layer
  double unetActBytesPerLatentPixel = 0;  // 0: use the transformer token model
  double lowvramBlockParams = 0;          // A1111 --lowvram's unit; 0: the architecture's largest block
  bool vaeFp16Overflows = false;
  // ComfyUI's memory_usage_factor for the model class (webui.yaml comfy_sampler_memory_source), or per unit of the
  // model's width where the class computes it from that (Wan's dim / 2222), and its latent's downscale where it is
  // not the VAE's (0: the VAE's).
  double comfyMemoryFactor = 0;
  double comfyMemoryFactorPerWidth = 0;
  int comfyLatentSpatial = 0;
  // ComfyUI's model joins a concat_latent_image to the noise along the width (comfy/ldm/hidream/model.py _forward:
  // torch.cat([x, image_cond], dim=-1)): its tokens join every forward's; elsewhere it joins the channels.
  bool comfyConcatTokens = false;
  bool runsIn(WebUiTool tool) const;
};

template <class V> void fields(V& v, GenerationFamily& x) { v(x.id, x.aliases, x.arch, x.defaultSize, x.tools, x.attentionHeads, x.attentionDownsample, x.unetActBytesPerLatentPixel, x.lowvramBlockParams, x.vaeFp16Overflows, x.comfyMemoryFactor, x.comfyMemoryFactorPerWidth, x.comfyLatentSpatial, x.comfyConcatTokens); }

struct ControlNetModel {
  KnowledgeText id;
  std::vector<KnowledgeText> match;
  KnowledgeText family;  // or "any"
  double params = 0;
  KnowledgeText label;
  // A transformer's ControlNet returns one map of the image tokens × the model's width per block it runs,
  // live beside the model's forward (0: a UNet's, whose residuals webui.yaml counts per latent pixel).
  int residualMaps = 0;
};

template <class V> void fields(V& v, ControlNetModel& x) { v(x.id, x.match, x.family, x.params, x.label, x.residualMaps); }

struct Preprocessor {
  KnowledgeText id;
  std::vector<KnowledgeText> match;  // lowercase substrings of the module name
  double bytes = 0;                // its model on the GPU (0: none)
};

template <class V> void fields(V& v, Preprocessor& x) { v(x.id, x.match, x.bytes); }

// One stage of the VAE decoder (rules/webui.yaml vae_decoder): its first ResnetBlock's widths and the
// output pixels per stage pixel.
struct VaeDecoderStage {
  int channelsIn = 0;
  int channelsOut = 0;
  int areaDivisor = 1;
};

template <class V> void fields(V& v, VaeDecoderStage& x) { v(x.channelsIn, x.channelsOut, x.areaDivisor); }

// How a tool writes the decoder's ResnetBlock: the maps live together at each step, as counts of
// input-width and output-width maps.
struct VaeResnetStyle {
  KnowledgeText id;
  std::vector<std::pair<int, int>> live;  // (input maps, output maps)
};

template <class V> void fields(V& v, VaeResnetStyle& x) { v(x.id, x.live); }

struct WebUiKnowledge {
  std::vector<WebUiFlag> flags;
  std::vector<AttentionBackend> attention;
  std::vector<GenerationFamily> families;
  std::vector<ControlNetModel> controlnets;
  std::vector<Preprocessor> preprocessors;
  // The figures below come from rules/webui.yaml, whose schema requires them: no C++ fallback.
  double preprocessorActBytesPerPixel = 0;
  int preprocessorResolution = 0;
  double displayBytes = 0;
  std::vector<KnowledgeText> vaeDecoderFamilies;  // memory.yaml VAE families with this decoder ("sd")
  std::vector<VaeDecoderStage> vaeDecoderStages;
  std::vector<VaeResnetStyle> vaeResnetStyles;
  std::array<KnowledgeText, 3> vaeResnetStyleByTool;  // by WebUiTool
  double vaeNaiveAttentionMatrices = 0;             // token² matrices of a materialised mid-block attention
  KnowledgeText vaeDecoderSource;
  double forgeInferenceBytes = 0;
  double comfyInferenceBytes = 0;
  double comfyReserveBytes = 0;
  int comfyOffloadStreams = 0;  // weights cast onto the GPU at once beside a partial load (its async offload streams)
  KnowledgeText comfyDynamicVramSince;                 // the release that made dynamic VRAM the default ("0.16.0")
  KnowledgeText comfyDynamicVramGpuTextEncoderSince;  // the release from which it keeps encoders on the GPU under --lowvram
  std::vector<KnowledgeText> comfyVaeFamiliesWithoutFp16;  // ComfyUI's VAE class works in bf16 or fp32 only: fp32 before Ampere
  double forgePartialLoadDivisor = 0;      // Forge's budget for a model that does not fit: max((free − inference)
  double forgePartialLoadMarginBytes = 0;  //   / divisor, free − inference − margin)
  double controlnetActivationShare = 0;    // a transformer ControlNet's activations, as a share of the model's
  double controlnetUnetResidualElements = 0;  // a UNet ControlNet's residual maps, elements per latent pixel
  KnowledgeText unetActSource;
  KnowledgeText medvramSpeed;  // the measured slowdown with its source ("A1111 wiki: 5.4 → 4.1 it/s …")
  KnowledgeText lowvramSpeed;
  double taesdDecodeBytesPerPixel = 0;
  std::vector<std::pair<double, int>> decoderTiles;  // (above GB, tile), first match
  int decoderTileOtherwise = 0;
  std::vector<std::pair<KnowledgeText, std::vector<KnowledgeText>>> checkpointFamilies;  // (family, substrings)
  KnowledgeText checkpointFamilyOtherwise;
  std::vector<KnowledgeText> profileKeys;  // a generation profile's keys (OL706)
  std::array<KnowledgeText, 3> defaultAttentions;  // by WebUiTool: the backend without an attention flag
  KnowledgeText comfyXpuAttention;                 // ComfyUI's PyTorch attention on an Intel GPU (XPU)
  std::vector<KnowledgeText> comfyAmdPytorchArchs;  // AMD targets ComfyUI runs PyTorch attention on
  std::vector<KnowledgeText> comfyAmdMathArchs;     // of those, where PyTorch's ROCm build runs SDPA's math kernel
  KnowledgeText comfyAmdAttentionMath;             // the math kernel's backend there
  KnowledgeText comfyAmdAttentionOtherwise;        // and its attention on the others

  const WebUiFlag* flag(std::string_view name) const;
  const AttentionBackend* backend(std::string_view id) const;
  const GenerationFamily* family(std::string_view nameOrAlias) const;  // case-insensitive
  // The ControlNet whose match strings occur in the model name, preferring the family's own models; nullptr for a
  // family with none in the data.
  const ControlNetModel* controlnet(std::string_view modelName, std::string_view family) const;
  const Preprocessor* preprocessor(std::string_view module) const;  // by the first matching entry
  // The tiled-VAE extension's decoder tile (latent px) for a card of `vramBytes` in total.
  int decoderTile(double vramBytes) const;
  // A checkpoint's family id from its lowercase name.
  std::string_view checkpointFamily(std::string_view lowercaseName) const;
  KnowledgeText defaultAttention(WebUiTool tool) const { return defaultAttentions[static_cast<std::size_t>(tool)]; }
  const VaeResnetStyle* vaeResnetStyle(std::string_view id) const;
  // The decoder's largest live set in `tool`, in bytes per output pixel per element byte (the decode's K):
  // every stage's ResnetBlock steps and the upsample into it.
  double vaeDecodeBytesPerPixel(WebUiTool tool) const;
  bool comfyVaeWithoutFp16(std::string_view vaeFamily) const;
  double comfyFp8ComputeCapability = 0;  // from this compute capability on, ComfyUI keeps an fp8 file in fp8
  double comfyWeightsVramShare = 0;      // maximum_vram_for_weights: this share of the card less the inference minimum
  double comfyMinWeightShareOffNvidia = 0;  // off NVIDIA a partial load keeps at least this share of the free memory
  std::vector<KnowledgeText> comfyFp16BrokenCards;  // catalog names where ComfyUI and Forge run no fp16 (GTX 16)
  double comfyFp16OnLinuxSinceCapability = 0;     // before it (Pascal), ComfyUI on Linux runs no fp16 either
  double forgeWeightsFreeShare = 0;  // Forge keeps fp32 weights where they fit this share of the free memory less 1 GiB
  // should_use_fp16 fails on the card in both memory managers: ComfyUI's (Linux assumed) and Forge's (any OS); `name` is the catalog's.
  bool managerWithoutFp16(std::string_view name, double computeCapability) const;
  bool fp16BrokenCard(std::string_view name) const;  // one of the GTX 16 cards it lists
};

template <class V> void fields(V& v, WebUiKnowledge& x) { v(x.flags, x.attention, x.families, x.controlnets, x.preprocessors, x.preprocessorActBytesPerPixel, x.preprocessorResolution, x.displayBytes, x.forgeInferenceBytes, x.comfyInferenceBytes, x.comfyReserveBytes, x.comfyOffloadStreams, x.comfyDynamicVramSince, x.comfyDynamicVramGpuTextEncoderSince, x.comfyVaeFamiliesWithoutFp16, x.comfyFp8ComputeCapability, x.comfyWeightsVramShare, x.comfyMinWeightShareOffNvidia, x.comfyFp16BrokenCards, x.comfyFp16OnLinuxSinceCapability, x.forgeWeightsFreeShare, x.forgePartialLoadDivisor, x.forgePartialLoadMarginBytes, x.controlnetActivationShare, x.controlnetUnetResidualElements, x.unetActSource, x.medvramSpeed, x.lowvramSpeed, x.taesdDecodeBytesPerPixel, x.vaeDecoderFamilies, x.vaeDecoderStages, x.vaeResnetStyles, x.vaeResnetStyleByTool, x.vaeNaiveAttentionMatrices, x.vaeDecoderSource, x.decoderTiles, x.decoderTileOtherwise, x.checkpointFamilies, x.checkpointFamilyOtherwise, x.profileKeys, x.defaultAttentions, x.comfyXpuAttention, x.comfyAmdPytorchArchs, x.comfyAmdMathArchs, x.comfyAmdAttentionMath, x.comfyAmdAttentionOtherwise); }

}  // namespace oomlint
