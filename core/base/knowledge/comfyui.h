// What oomlint knows about ComfyUI workflows (rules/comfyui.yaml): each node type's role in the memory
// estimate and its widget order, a model file's family from its name, a VAE's latent channels, and the
// weight formats a loader can store (weight_dtype, fp8 file names, GGUF quantizations).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/knowledge/knowledge_text.h"
#include "base/knowledge/architectures.h"
#include "base/knowledge/webui.h"

namespace oomlint {

// What a node means to the estimate: the schema's node_role enum, one value each.
enum class NodeRole {
  Checkpoint,
  DiffusionModel,
  TextEncoder,
  Vae,
  Lora,
  Controlnet,
  ControlnetApply,
  Ipadapter,
  ClipVision,
  Latent,
  Sampler,
  Scheduler,
  VaeDecode,
  VaeDecodeTiled,
  VaeEncode,
  LatentUpscale,
  LatentUpscaleBy,
  UpscaleModel,
  UpscaleWithModel,
  LatentUpscaleModel,  // a model that upscales a latent (LatentUpscaleModelLoader: LTX-2's spatial upscaler)
  ImageScale,
  BlockSwap,    // a node pack's block-swap settings: the loader keeps these blocks in RAM, one at a time on the GPU
  ExtraModel,   // a module file a wrapper's loader adds to its model (WanVideoWrapper's VACE module)
  ReferenceLatent,  // adds an encoded image to the conditioning: its tokens join every forward's (FLUX Kontext / .2, Qwen edit)
  PassThrough,  // wiring (Reroute): its input flows on unchanged
  VariableSet,  // a frontend variable (KJNodes' SetNode): its input, under the name in its widget
  VariableGet,  // reads the variable of that name back (GetNode): a link across the canvas
  FeatureCache,  // patches the model to reuse features between steps, keeping token maps on the GPU while it samples
  NoCost,       // no GPU memory of its own worth costing
};
std::string_view toString(NodeRole role);  // the data's spelling: "diffusion_model"
std::optional<NodeRole> parseNodeRole(std::string_view text);

// Each struct's fields, for the rules compiler's tables (knowledge_tape.h): a field left out of
// its list is not compiled in, and reads as its default at run time.

// A node pack's loader that places its model itself (kijai's wrappers), as its source does.
struct PackLoader {
  std::vector<KnowledgeText> dtypeWidgets;  // the widgets whose values (weight_dtypes) give the storage, first set wins;
                                          // empty: UNETLoader's weight_dtype (not stored for every node: see storageWidgets())
  KnowledgeText loadDeviceWidget;  // "main_device" there keeps the model on the GPU from its load on (the text encode too)
  bool onGpuFromLoad = false;    // the model is on the GPU from its load on, whatever the settings
  std::vector<KnowledgeText> maskedAttentionModes;  // attention_mode values that build a dense tokens² bool mask
};

template <class V> void fields(V& v, PackLoader& x) { v(x.dtypeWidgets, x.loadDeviceWidget, x.onGpuFromLoad, x.maskedAttentionModes); }

// A node pack's block-swap settings: the blocks its loader keeps in RAM, each visiting the GPU for its forward.
struct PackBlockSwap {
  std::vector<KnowledgeText> widgets;  // the widgets counting swapped blocks, one per block kind
  // The params of one block of each kind; 0: the architecture's largest block; -1: a block of the module an extra_model
  // node adds (WanVideoWrapper's VACE blocks), counted only where one is loaded.
  std::vector<double> blockParams;
  std::vector<int> most;       // the most blocks of each kind its widget takes; 0: the architecture's blocks
  KnowledgeText prefetchWidget;  // blocks fetched ahead (each on the GPU beside the running one)
};

template <class V> void fields(V& v, PackBlockSwap& x) { v(x.widgets, x.blockParams, x.most, x.prefetchWidget); }

// A node pack's decode or clip encode, which tiles when its own switch says so and never retries in tiles.
struct PackVae {
  KnowledgeText tilingWidget;  // decodes, clip encodes: the boolean that tiles (else the node's role says)
  KnowledgeText tileWidget;    // decodes: the tile's side in pixels
  KnowledgeText framesWidget;  // decodes: the latent frames one tiled call decodes (the rest wait)
  int framesPerCall = 0;     // decodes that take every frame of a call at once: the most output frames a call takes
  double outputBytesPerPixel = 0;       // decodes: what stays on the GPU per output pixel of every frame, untiled
  double tiledOutputBytesPerPixel = 0;  // the same, tiled
  // Decodes whose older releases read the tile widget's pixels as latent pixels, so one tile covered any latent up to
  // that many a side: which releases (the range's reason, reaching the untiled decode).
  KnowledgeText olderUntiledReleases;
};

template <class V> void fields(V& v, PackVae& x) {
  v(x.tilingWidget, x.tileWidget, x.framesWidget, x.framesPerCall, x.outputBytesPerPixel, x.tiledOutputBytesPerPixel, x.olderUntiledReleases);
}

struct NodeType {
  KnowledgeText type;
  NodeRole role = NodeRole::NoCost;
  std::vector<KnowledgeText> widgets;  // widget names in widgets_values order
  int channels = 0;                  // latent nodes made for one latent format; 0: any model's
  bool gguf = false;
  KnowledgeText family;  // latent nodes of one family only: its id (rules/webui.yaml or generation_models)
  bool wholeModel = false;  // a sampler that moves the whole diffusion model onto the GPU (no partial loading)
  double extraLatentFrames = 0;  // latent frames a video node adds beside its clip's (a reference, packed motion)
  double scaleBy = 0;            // latent upscales by a model of one scale (LTXVLatentUpsampler's ×2): that scale
  bool fp32UntilSampled = false;  // a loader that builds its model in fp32 on the GPU; the sampler casts it later
  // The pixels of each image it yields whatever its input's (FluxKontextImageScale's ~1 MP), or, a reference_latent
  // node, of each image input it encodes itself (TextEncodeQwenImageEdit's); 0: its input's size.
  double imagePixels = 0;
  bool packsLatents = false;  // joins latents into one [B, 1, N] tensor (LTXVConcatAVLatent): ComfyUI's guess counts channels
  bool noiseMask = false;     // sets a noise mask on the latent (LTXVImgToVideo, LTXVAddGuide): per-token timesteps
  // Node packs that manage their own memory (kijai's wrappers), as their source does it:
  PackLoader loader;
  PackBlockSwap blockSwap;
  PackVae vae;
  bool sequentialGuidance = false;  // samplers: cond and uncond run one after the other (a `batched_cfg` true batches them)
  bool encodesClip = false;         // latent nodes: a pack's node that VAE-encodes the whole clip on the GPU, untiled unless told
  // Samplers whose older releases ran a heavier block than the family's census figure: its bytes per token-channel
  // in inference, the range's top, and which releases (the range's reason).
  double olderBlockBytesPerTokenChannel = 0;
  KnowledgeText olderBlockReleases;
  // Feature caches: the maps of all tokens × the model's width it keeps per batch element and guidance pass, for
  // each order of its expansion where a widget gives the highest (0..max_order: one set per order).
  double cacheTokenMaps = 0;
  KnowledgeText cacheOrdersWidget;
  int cacheOrdersDefault = 0;  // the widget's default (its value when the workflow's cannot be read)
  // Where a widget picks the model it hooks (TaylorSeer's model_type), the maps for each value other than the default.
  KnowledgeText cacheMapsWidget;
  std::vector<std::pair<KnowledgeText, double>> cacheMapsByValue;
  // A node that patches the model and then moves every block onto the GPU itself at the first step, defeating ComfyUI's
  // partial load (TaylorSeer's flux_block_swap with nothing swapped): for these values of this widget, unless the
  // input named is linked (its block-swap settings keep some blocks in RAM).
  KnowledgeText wholeModelWidget;
  std::vector<KnowledgeText> wholeModelValues;
  KnowledgeText wholeModelUnlessLinked;
  // A node that runs on the GPU over every frame of its image input at once, at that input's own size (Canny), and a
  // node whose output is a video's frames at the file's size (LoadVideo): no workflow says that size, so the first fed
  // by the second is listed as not costed.
  bool gpuOverFrames = false;
  bool videoSource = false;
  // A latent node whose latent is the size of its `pixels` input (InstructPixToPixConditioning: zeros like the image's
  // latent), and which adds that encoded image to the conditioning as concat_latent_image (model_base's c_concat).
  bool latentFromPixels = false;
  bool concatLatent = false;
  int guidanceConds = 0;  // a guider that runs this many conds per step (DualCFGGuider: negative, middle, positive)

  // dtypeWidgets, or ComfyUI's own {"weight_dtype"} when the data names none.
  std::span<const KnowledgeText> storageWidgets() const;
  // The position of a widget in widgets_values, or nullopt when the node has no such widget.
  std::optional<std::size_t> widgetIndex(std::string_view name) const;
};

template <class V> void fields(V& v, NodeType& x) {
  v(x.type, x.role, x.widgets, x.channels, x.gguf, x.family, x.wholeModel, x.extraLatentFrames, x.scaleBy, x.fp32UntilSampled, x.loader,
    x.blockSwap, x.vae, x.sequentialGuidance, x.encodesClip, x.imagePixels, x.packsLatents, x.olderBlockBytesPerTokenChannel,
    x.olderBlockReleases, x.cacheTokenMaps, x.cacheOrdersWidget, x.cacheOrdersDefault, x.cacheMapsWidget, x.cacheMapsByValue,
    x.wholeModelWidget, x.wholeModelValues, x.wholeModelUnlessLinked, x.gpuOverFrames, x.videoSource, x.noiseMask, x.latentFromPixels,
    x.concatLatent, x.guidanceConds);
}

// A name table entry: matches when the lowercase name contains every `+`-joined part of one match string.
struct NameMatch {
  KnowledgeText value;  // the family id, the label, or the channels as text
  std::vector<KnowledgeText> match;
  bool matches(std::string_view lowercaseName) const;
};

template <class V> void fields(V& v, NameMatch& x) { v(x.value, x.match); }

struct GgufQuant {
  KnowledgeText name;  // lowercase, as in a file name ("q4_k")
  double bits = 0;   // per weight, block scales included
};

template <class V> void fields(V& v, GgufQuant& x) { v(x.name, x.bits); }

// A model a workflow loads beside the diffusion model (side_models): a CLIP vision encoder, an IP-Adapter,
// an upscale model, with its weights as ComfyUI holds them and, for an upscale model, its tile's work.
struct SideModel {
  NodeRole role = NodeRole::NoCost;
  KnowledgeText label;
  std::vector<KnowledgeText> match;  // as NameMatch's; "" matches any name
  double params = 0;
  double bytesPerParam = 2;
  int scale = 1;                   // image upscale models: output px per input px, each side
  double bytesPerInputPixel = 0;   // upscale models: working memory per input pixel of a tile (a latent's: per position)
  int blocks = 0;                  // extra models: blocks, each keeping one map of the tokens through the forward
  // latent upscale models: the working memory per input position when PyTorch runs their 3-D convolutions without
  // cuDNN (2.9-2.10 with cuDNN before 9.15: slow_conv3d's column buffer)
  double vol2colBytesPerInputPixel = 0;

  double weightBytes() const { return params * bytesPerParam; }
  bool assumed() const;  // the role's catch-all entry (its match is the empty string)
};

template <class V> void fields(V& v, SideModel& x) {
  v(x.role, x.label, x.match, x.params, x.bytesPerParam, x.scale, x.bytesPerInputPixel, x.blocks, x.vol2colBytesPerInputPixel);
}

struct ComfyUiKnowledge {
  std::vector<NodeType> nodes;
  std::vector<NameMatch> modelFamilies;       // value: a generation family id (rules/webui.yaml)
  std::vector<NameMatch> unmodelledFamilies;  // value: the family's label
  // Models only ComfyUI runs (generation_models): each a generation family on its own architecture, with
  // the names that match it (value: the family id). Same order in all three.
  std::vector<GenerationFamily> generationFamilies;
  std::vector<Architecture> generationArchitectures;
  std::vector<NameMatch> generationModels;
  std::vector<NameMatch> vaeChannels;         // value: the channels
  std::vector<std::pair<KnowledgeText, double>> weightDtypes;  // (weight_dtype, bytes; 0 = the file's own)
  std::vector<KnowledgeText> fp8NameMarks;
  std::vector<KnowledgeText> fp8ScaledNameMarks;  // fp8 files whose layers carry scales: quantized on any card
  std::vector<GgufQuant> ggufQuants;
  std::vector<std::pair<KnowledgeText, KnowledgeText>> ggufStepDown;  // (quant, the next smaller as written)
  int fallbackTileImage = 0;  // px: the tile ComfyUI retries a decode in after an OOM (images)
  int fallbackTileVideo = 0;  // px: the same for video VAEs
  std::vector<SideModel> sideModels;
  int upscaleTile = 0;          // px: ImageUpscaleWithModel's first tile
  int upscaleSmallestTile = 0;  // px: the smallest it halves down to
  KnowledgeText assumes;          // the ComfyUI whose memory manager the estimate follows (a report's `assumes`)
  KnowledgeText assumesDynamic;   // the same under dynamic VRAM


  const NodeType* node(std::string_view type) const;
  // The first entry of `table` that matches the name (folders stripped, lowercased here).
  static const NameMatch* firstMatch(const std::vector<NameMatch>& table, std::string_view fileName);
  // The GGUF quantization a file name carries, or nullptr.
  const GgufQuant* ggufQuant(std::string_view fileName) const;
  bool namesFp8(std::string_view fileName) const;
  bool namesScaledFp8(std::string_view fileName) const;  // an fp8 file with scales ("_fp8_scaled", "fp8mixed")
  // The first side model of `role` whose match the lowercase text satisfies, or nullptr.
  const SideModel* sideModel(NodeRole role, std::string_view lowercaseText) const;
};

template <class V> void fields(V& v, ComfyUiKnowledge& x) { v(x.nodes, x.modelFamilies, x.unmodelledFamilies, x.generationFamilies, x.generationArchitectures, x.generationModels, x.vaeChannels, x.weightDtypes, x.fp8NameMarks, x.fp8ScaledNameMarks, x.ggufQuants, x.ggufStepDown, x.fallbackTileImage, x.fallbackTileVideo, x.sideModels, x.upscaleTile, x.upscaleSmallestTile, x.assumes, x.assumesDynamic); }

// A file name as ComfyUI lists it, without its folders (either slash) and lowercased.
std::string bareFileName(std::string_view name);

}  // namespace oomlint
