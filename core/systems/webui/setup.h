// A generation job as the memory model sees it: the tool, the model family, the image size, the passes
// (hires fix), ControlNet units and every launch flag or setting that moves weights or activations.
// Derived once from a WebUiInput (setupGeneration), purely: the checks read it and report, the estimate
// reads its values, the plan changes them. Each value keeps where it came from (the launch flag, the
// profile node, the parameters field) so a check points at the text that set it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "base/document/key_path.h"
#include "base/knowledge/architectures.h"
#include "base/knowledge/webui.h"
#include "base/text/release_version.h"
#include "base/text/source_text.h"
#include "systems/webui/webui_input.h"

namespace oomlint {

struct ControlNetUnit {
  std::string name;
  const ControlNetModel* model = nullptr;
  bool lowVram = false;
  const Preprocessor* preprocessor = nullptr;  // the annotator its module runs, if any
  bool fp32UntilSampled = false;  // on the GPU in fp32 until the sampler casts it (XLabs' loader)
  bool fp8File = false;  // ComfyUI: an fp8 file, which its unet_dtype keeps fp8 (a ControlNet's size is never said to fit)
};

// A model loaded beside the diffusion model (a ComfyUI workflow's CLIP vision encoder, IP-Adapter or
// upscale model: rules/comfyui.yaml side_models), as the estimate costs it.
struct SideWeights {
  std::string label;
  double bytes = 0;
  bool assumed = false;  // the file's name is none oomlint knows: costed as the role's usual model
};

// An upscale model run on the decoded image (ComfyUI's ImageUpscaleWithModel).
struct ModelUpscale {
  SideWeights weights;
  int scale = 0;                  // 0: no model upscale
  double bytesPerInputPixel = 0;  // the model's work per input pixel of a tile
  long width = 0, height = 0;     // the image it gets
  bool beforeHires = false;       // it feeds the second pass (else it is the last step)
  int tile = 0, smallestTile = 0;  // px: the tile it starts with, and the smallest it halves down to
};

// A model run on the first pass's latent between the passes (ComfyUI's LTXVLatentUpsampler): on the whole latent at
// once, outside the memory manager.
struct LatentModelUpscale {
  SideWeights weights;                  // bytes 0: none
  double bytesPerInputPosition = 0;     // its working memory per position of the latent it gets (frames × height × width)
  double vol2colBytesPerInputPosition = 0;  // the same when PyTorch runs its 3-D convolutions without cuDNN
};

enum class Offload { Normal, Medvram, Lowvram };                 // A1111
// Forge / ComfyUI memory managers; Dynamic: ComfyUI's dynamic VRAM (comfy-aimdo), weights paged a layer at a time.
enum class LoadMode { Normal, Low, NoVram, High, GpuOnly, Dynamic };
enum class VaeDecode { Full, Tiled, Taesd, Cpu };

// How the setup's tool takes a written launch flag.
enum class FlagStanding {
  Unknown,    // in no tool's list
  OtherTool,  // another tool's flag
  Ignored,    // accepted and ignored (Forge and A1111's memory flags)
  Honoured,   // its effect is in the setup
};

// Which setting a honoured flag chose, where two flags can contradict each other.
enum class FlagChoice { Other, Attention, LoadMode, Offload };

struct ReadFlag {
  const LaunchFlag* written = nullptr;  // in the WebUiInput
  const WebUiFlag* known = nullptr;     // null when Unknown
  FlagStanding standing = FlagStanding::Unknown;
  FlagChoice choice = FlagChoice::Other;
};

// A setting written but not readable (kept at its default), with the sentence that says why.
struct SettingProblem {
  Range range;
  KeyPath path;
  std::string message;
};

struct GenerationSetup {
  WebUiTool tool = WebUiTool::A1111;
  const GenerationFamily* family = nullptr;  // null: nothing to estimate (the model is unknown)
  const Architecture* arch = nullptr;
  bool familyAssumed = false;  // nothing named the model: A1111's default SD1.5
  long width = 512, height = 512;
  int batchSize = 1;
  int frames = 1;              // a video's frames (ComfyUI's latent `length`); 1 for an image
  double hiresScale = 0;       // 0: no hires pass
  bool hiresLatent = true;     // a latent upscaler (no decode/encode between the passes)
  std::vector<ControlNetUnit> controlnets;
  // A1111
  Offload offload = Offload::Normal;
  bool medvramSdxlOnly = false;  // --medvram-sdxl: medvram for SDXL models only
  std::string attention;         // backend id
  bool fp32Weights = false;      // --no-half / --precision full / --all-in-fp32 / --force-fp32
  bool fp32Vae = false;          // --no-half-vae, --vae-in-fp32, A1111's SDXL fp32 fallback, or a pack VAE loader's fp32
  bool vaeBf16 = false;          // a pack's VAE loader keeps it in bf16 (ComfyUI's own picks bf16 only where the card has it)
  bool vaeDtypeFlag = false;     // --fp16-vae, --bf16-vae or --fp32-vae chose the VAE's dtype
  bool vaeWithoutFp16 = false;   // ComfyUI's own VAE class, of a family it runs in bf16 or fp32 only (fp32 before Ampere)
  bool vaeFp16Fix = false;       // an fp16-safe VAE (madebyollin/sdxl-vae-fp16-fix)
  bool batchCondUncond = true;   // A1111 1.6+ setting (Optimizations › Batch cond/uncond)
  bool upcastSampling = false;   // --upcast-sampling: fp16 weights, fp32 sampling math (no memory cost)
  bool vaeFp32Fallback = false;  // A1111 reverts a VAE that overflows in fp16 (SDXL's) to fp32
  VaeDecode vaeDecode = VaeDecode::Full;
  int decodeTilePixels = 0;    // a tiled decode's tile side in pixels; 0: the tiled-VAE extension's, by VRAM
  // Forge / ComfyUI
  LoadMode loadMode = LoadMode::Normal;
  bool alwaysOffload = false;
  bool unetFp8 = false;
  // The loader leaves the diffusion model's dtype to ComfyUI's (or Forge's) unet_dtype, which decides it with the card: a
  // ComfyUI fp8 file in 16 bits on one without fp8 compute where they fit its share for weights (GenerationEstimate's
  // unetFp8FileIn16Bits), fp32 where the card runs no fp16 for them and that fits
  bool unetDtypeByTool = false;
  // An fp8 lever (a loader's weight_dtype, --fp8_e4m3fn-unet, Forge's --unet-in-fp8-e4m3fn): the weights in fp8, the
  // card's rules no longer deciding their dtype.
  void storeUnetInFp8() { unetFp8 = true; unetDtypeByTool = false; }
  bool packModel = false;  // a node pack's loader builds the model in its own dtypes (kijai's wrappers): no card rule
  bool vaeDtypeByTool = false;  // ComfyUI's own VAE class or Forge's (not a pack's loader with a precision): vae_dtype decides
  bool forceFp16 = false;       // --force-fp16 / --all-in-fp16: should_use_fp16 holds whatever the card
  bool textEncoderFp8 = false;
  bool textEncoderOnCpu = false;   // ComfyUI --lowvram
  double gpuWeightsBytes = 0;      // Forge's GPU Weights slider; 0: its default (total − 1024 MB)
  double reserveBytes = -1;        // ComfyUI --reserve-vram; <0: its default
  bool runsOnCpu = false;          // --use-cpu all / --cpu / --always-cpu
  // The ComfyUI release that runs it where the job says (its workflow's nodes), and whether the card is one dynamic
  // VRAM is the default on from v0.16.0 (NVIDIA's; a card known only by its size is taken as one): the flags then
  // choose between dynamic VRAM and the older manager (applyLaunchFlags).
  std::optional<ReleaseVersion> comfyRelease;
  bool noiseMask = false;  // a node sets a noise mask on the latent (image-to-video, guides): per-token timesteps
  bool comfyDynamicVramCard = true;
  // A ComfyUI sampler's cfg where the workflow writes one: 1.0 skips the unconditional pass (comfy/samplers.py's
  // cfg1 optimisation), any other value runs it. Unset: the architecture's habit (cfg_in_sampling).
  std::optional<bool> unconditionalPass;
  // A custom sampler moves the whole diffusion model onto the GPU itself (XLabs' XlabsSampler): whatever the
  // memory manager and the flags would load, all of it is resident while it samples.
  std::string wholeModelSampler;
  // A node pack that places the model itself (kijai's wrappers, rules/comfyui.yaml), as its source does:
  double swappedParams = 0;          // blocks its block swap keeps in RAM, less the ones on the GPU in flight
  std::string blockSwap;             // what set them, for the text ("WanVideoBlockSwap: 20 blocks")
  bool modelOnGpuFromLoad = false;   // the diffusion model sits on the GPU from its load on, the text encode too
  bool modelLoadsAfterEncodes = false;  // ... unless its loader waits on the encode nodes (MochiWrapper's trigger)
  bool denseAttentionMask = false;   // a dense tokens² bool mask beside attention (HunyuanVideoWrapper's sdpa)
  std::optional<bool> guidanceBatched;   // set where the sampler decides it (the wrappers run cond and uncond apart)
  int decodeFramesPerCall = 0;           // a pack's decode that takes every frame of a call at once: its most frames
  int decodeFramesInFlight = 0;          // output frames one tiled decode call takes; 0: the VAE's own (memory.yaml)
  double decodeOutputBytesPerPixel = 0;  // the decoded clip kept on the GPU per output pixel of every frame
  bool clipEncode = false;        // a pack's latent node VAE-encodes the whole clip (a start image padded to its length)
  bool clipEncodeTiled = false;   // in tiles (its tiled_vae); it never retries in them
  bool decodeRetriesTiled = true;  // ComfyUI's VAEDecode retries in tiles after an out-of-memory; a wrapper's decode does not
  bool textEncoderWhole = false;   // the pack's encode node moves the whole text encoder onto the GPU (no partial load)
  int persistentTokenMaps = 0;     // maps of all tokens × width kept through each forward (WanVideoWrapper's VACE hints)
  // A transformer block's bytes per token-channel in inference where not the family's census figure (0: that), and
  // where a pack's older releases kept more, that figure and which releases: the range reaches it.
  double blockBytesPerTokenChannel = 0;
  // A feature cache's maps of all tokens × the model's width, per batch element and guidance pass, kept through sampling.
  double cachedTokenMaps = 0;
  std::string featureCache;  // which node, for the text
  double olderBlockBytesPerTokenChannel = 0;
  std::string olderBlockReleases;
  // A pack's tiled decode whose older releases covered this latent with one tile: which releases, and what stays on the
  // GPU per output pixel untiled (the range reaches that decode).
  std::string decodeUntiledReleases;
  double decodeUntiledOutputBytesPerPixel = 0;
  // Reference images whose latent tokens join every forward's (ComfyUI's ReferenceLatent): their pixels, all together.
  double referencePixels = 0;
  // The conditioning carries an image of the latent's size as concat_latent_image (InstructPixToPixConditioning). Where
  // the family's model joins it along the width (comfy_concat_tokens) its tokens join every forward's, uncounted by
  // ComfyUI's own guess at the work.
  bool concatsLatent = false;
  bool imageSizeAssumed = false;  // the latent is a loaded image's, whose size the workflow does not set: the default's
  int guidanceConds = 0;  // conds per step where a guider says (DualCFGGuider: 3); 0: cond and, with cfg, uncond
  bool referenceSizeAssumed = false;  // one's size is not in the workflow: the output's is taken
  bool packedLatent = false;  // ComfyUI packs the sampler's latents into one [B, 1, N] tensor (LTX-2's audio and video)
  // A ComfyUI loader's storage, where a workflow names it (a GGUF quantization: fractional bytes);
  // 0: from the flags above.
  double unetBytesPerParam = 0;
  double textEncoderBytesPerParam = 0;
  bool controlnetOnCpu = false;    // --use-cpu controlnet: ControlNet models and annotators
  // ComfyUI's models beside the diffusion model: CLIP vision encoders (loaded for the encode, managed as
  // the text encoders are), IP-Adapters (beside the UNet at every step), a model upscale.
  std::vector<SideWeights> clipVision;
  std::vector<SideWeights> ipadapters;
  // The diffusion models other samplers run (a second expert, a refiner): on the GPU beside the first under --highvram
  // and --gpu-only, which never send a diffusion model off it.
  std::vector<SideWeights> otherDiffusionModels;
  ModelUpscale upscale;
  LatentModelUpscale latentUpscale;

  // Where the values came from (pointers into the WebUiInput, which outlives the setup).
  // Every written flag in order, as the tool takes it. Read only once the model is known: without a
  // model there is nothing to estimate, and the flag checks stay silent.
  std::vector<ReadFlag> flags;
  Range modelRange;                             // the profile's `model`, else the parameters' Model field
  const LaunchFlag* offloadFlag = nullptr;      // the first flag that chose `offload` as it ends
  const LaunchFlag* fp32WeightsFlag = nullptr;  // the first flag that asked for fp32 weights
  const LaunchFlag* fp32VaeFlag = nullptr;      // the first flag that asked for an fp32 VAE
  std::vector<SettingProblem> problems;         // settings written but not readable, in reading order

  bool estimable() const { return family != nullptr; }
};

// Everything the input says about the generation. Never fails: what cannot be read is in `problems`,
// and an unknown model leaves the setup without a family (not estimable).
GenerationSetup setupGeneration(const WebUiInput& input, const WebUiKnowledge& webui, const Architectures& architectures);

// A launch line's flags taken into a setup made from another input (a ComfyUI workflow's, run under that launch
// line), as setupGeneration takes them: by the setup's tool, each one's standing in setup.flags (pointers into
// `launch`, which must outlive the setup's use).
void applyLaunchFlags(GenerationSetup& setup, const WebUiInput& launch, const WebUiKnowledge& webui);

}  // namespace oomlint
