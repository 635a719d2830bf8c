#include "systems/webui/generation_estimate.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include "engine/estimate_core.h"

namespace oomlint {

namespace {

// A storage's name from its bytes per parameter; a fractional one is a block quantization (GGUF).
std::string dtypeName(double bytes) {
  if (bytes != std::floor(bytes)) return "quantized";
  return bytes >= 4 ? "fp32" : bytes <= 1 ? "fp8" : "fp16";
}

class Estimator {
 public:
  Estimator(const GenerationSetup& s, const WebUiKnowledge& webui, const MemoryModel& memory, const GpuTarget& gpu)
      : s_(s), gpu_(gpu), m_(memory), w_(webui) {
    // should_use_fp16 (ComfyUI's, and Forge's copy): forced on by --force-fp16, else off under --force-fp32 or on a card
    // it lists.
    cardWithoutFp16_ = managed() && !s.forceFp16 && webui.managerWithoutFp16(gpu.name, gpu.computeCapability);
    noFp16_ = managed() && !s.forceFp16 && (s.fp32Weights || cardWithoutFp16_);
    unetFp8FileIn16Bits_ = s.tool == WebUiTool::ComfyUi && s.unetFp8 && s.unetDtypeByTool && cardComputesFp8() == false && fitsForWeights(2);
    // fp32 weights where 4 B fit: ComfyUI's on a GTX 16 card, Forge's on Pascal too (their unet_dtype's manual_cast candidates).
    const bool fp32Storage = cardWithoutFp16_ && (s.tool == WebUiTool::Forge || webui.fp16BrokenCard(gpu.name));
    unetFp32ForCard_ = s.unetDtypeByTool && s.unetBytesPerParam == 0 && (!s.unetFp8 || unetFp8FileIn16Bits_) && fp32Storage && fitsForWeights(4);
    // text_encoder_device: the CPU where should_use_fp16 fails, unless every model stays on the GPU.
    textEncoderOnCpuNoFp16_ = noFp16_ && s.loadMode != LoadMode::GpuOnly;
    unetBytes_ = s.unetBytesPerParam > 0 ? s.unetBytesPerParam
                 : unetFp32ForCard_       ? 4
                 : s.unetFp8 && !unetFp8FileIn16Bits_ ? 1
                 : s.fp32Weights ? 4 : 2;
    teBytes_ = s.textEncoderBytesPerParam > 0 ? s.textEncoderBytesPerParam : s.textEncoderFp8 ? 1 : s.fp32Weights ? 4 : 2;
    // ComfyUI's and Forge's own model code computes in fp32 where the card runs no fp16 for it (unet_manual_cast,
    // get_computation_dtype).
    computeFp32ForCard_ = cardWithoutFp16_ && !s.packModel;
    computeBytes_ = s.fp32Weights || computeFp32ForCard_ ? 4 : 2;  // fp32 weights imply it (unetFp32ForCard_)
    vaeFp32ForCard_ = s.vaeDtypeByTool && !s.vaeDtypeFlag && ((s.vaeWithoutFp16 && gpu.predatesBf16()) || cardWithoutFp16_);
    vaeBytes_ = s.fp32Vae || s.fp32Weights || vaeFp32ForCard_ ? 4 : 2;
    // ComfyUI loads a ControlNet in 16 bits whatever stores the diffusion model (a loader's fp8 weight_dtype, a
    // GGUF file) or a 16- or 32-bit ControlNet file (comfy/controlnet.py; an fp8 file stays fp8: ControlNetUnit::fp8File);
    // the WebUIs cast it to the model's dtype.
    cnBytes_ = s.tool == WebUiTool::ComfyUi ? (s.fp32Weights ? 4 : 2) : unetBytes_;
    const bool cfg = s.unconditionalPass.value_or(s.arch->denoiser.cfgInSampling);
    // A1111 1.6+ batches cond and uncond unless the setting is off; Forge and ComfyUI always do; a wrapper's
    // sampler says for itself.
    const bool batched = s.guidanceBatched.value_or(s.batchCondUncond || s.tool != WebUiTool::A1111);
    // A guider's own conds (DualCFGGuider's three) or cond and, with cfg, uncond.
    guidancePasses_ = s.guidanceConds > 0 ? s.guidanceConds : cfg ? 2 : 1;
    elements_ = s.batchSize * (batched ? guidancePasses_ : 1);
    cnLowVram_ = std::any_of(s.controlnets.begin(), s.controlnets.end(), [](const ControlNetUnit& u) { return u.lowVram; });
  }

  GenerationEstimate run() {
    GenerationEstimate out;
    Estimate& e = out.estimate;
    e.gpu = gpu_;
    e.coarse = s_.arch->coarse;
    if (s_.runsOnCpu) {  // --use-cpu all / --cpu / --always-cpu: the GPU holds nothing of the model
      e.phases.emplace_back(kDenoisePhase).components.push_back(fixed());
    } else {
      addGpuPhases(out);
    }
    for (auto& phase : e.phases) finish(phase);
    widenForConvolutionsWithoutCudnn(e);
    widenForOlderReleases(e);
    widenForUntiledDecodeReleases(e);
    widenForFp8ComputeUnknown(e);
    concludeEstimate(e);
    if (out.attentionTooLarge) e.verdict = Verdict::Oom;  // split attention stops before it allocates
    out.streamedBytes = streamed_;
    out.unetFp8FileIn16Bits = unetFp8FileIn16Bits_;
    return out;
  }

 private:
  // Older releases that ran a heavier block (a pack's, as WanVideoWrapper's; else ComfyUI's own, as its FLUX blocks
  // before their clean-ups): the same generation with that block is the range's top, the reason naming the releases.
  void widenForOlderReleases(Estimate& e) const {
    if (s_.family->unetActBytesPerLatentPixel > 0) return;
    const ActivationCoefficients family = m_.activations(s_.arch->denoiser.activationFamily);
    // ComfyUI's own older block where nothing names another (the widened setup names its block: no widening again).
    const bool comfyOwn = comfyBlocks() && s_.olderBlockBytesPerTokenChannel <= 0 && s_.blockBytesPerTokenChannel <= 0;
    const double heavier = comfyOwn ? family.comfyUiOlderInferenceBytesPerTokenChannel : s_.olderBlockBytesPerTokenChannel;
    if (heavier <= 0) return;
    // A block heavier only under a noise mask (LTX-2's per-token timesteps) when nothing sets one.
    if (comfyOwn && family.comfyUiOlderNeedsNoiseMask && !s_.noiseMask) return;
    // A workflow saved by the release that lightened the block, or a later one, never ran the heavier one.
    const auto lighterSince = ReleaseVersion::parse(family.comfyUiOlderUntil);
    if (comfyOwn && s_.comfyRelease && lighterSince && *s_.comfyRelease >= *lighterSince) return;
    GenerationSetup older = decided();
    older.blockBytesPerTokenChannel = heavier;
    older.olderBlockBytesPerTokenChannel = 0;
    older.decodeUntiledReleases.clear();  // each older release's top stands on its own
    widenWith(e, Estimator(older, w_, m_, gpu_).run().estimate, comfyOwn ? std::string(family.comfyUiOlderReleases) : s_.olderBlockReleases);
  }

  // The setup with the weights' dtype as this card has it: an alternative estimate then widens for its own reason only.
  GenerationSetup decided() const {
    GenerationSetup g = s_;
    g.unetFp8 = g.unetFp8 && !unetFp8FileIn16Bits_;
    if (unetFp32ForCard_) g.unetBytesPerParam = 4;
    g.unetDtypeByTool = false;
    return g;
  }

  // ComfyUI's own model code runs the blocks (a pack's whole-model sampler runs the pack's).
  bool comfyBlocks() const { return s_.tool == WebUiTool::ComfyUi && s_.wholeModelSampler.empty(); }

  // A pack's tiled decode whose older releases decoded this latent in one tile: the same generation decoded untiled is
  // the range's top, the reason naming the releases.
  void widenForUntiledDecodeReleases(Estimate& e) const {
    if (s_.decodeUntiledReleases.empty() || s_.vaeDecode != VaeDecode::Tiled) return;
    GenerationSetup older = decided();
    older.vaeDecode = VaeDecode::Full;
    older.decodeOutputBytesPerPixel = s_.decodeUntiledOutputBytesPerPixel;
    older.decodeUntiledReleases.clear();
    older.olderBlockBytesPerTokenChannel = 0;  // each older release's top stands on its own
    widenWith(e, Estimator(older, w_, m_, gpu_).run().estimate, s_.decodeUntiledReleases);
  }

  // ComfyUI's supports_fp8_compute for the card: NVIDIA's from a compute capability on, no other vendor's; nullopt
  // when only its size is known.
  std::optional<bool> cardComputesFp8() const {
    if (gpu_.computeCapability > 0) return gpu_.computeCapability >= w_.comfyFp8ComputeCapability;
    if (gpu_.nvidiaOrUnnamed()) return std::nullopt;
    return false;
  }

  // unet_dtype's other test: the model at these bytes per parameter within ComfyUI's maximum_vram_for_weights (its share
  // of the card less the inference minimum and the reserve), or Forge's share of the free memory less its minimum.
  bool fitsForWeights(double bytesPerParam) const {
    const double card = static_cast<double>(gpu_.vramBytes);
    const double forWeights = s_.tool == WebUiTool::Forge ? w_.forgeWeightsFreeShare * (card - fixed().bytes) - w_.forgeInferenceBytes
                                                          : w_.comfyWeightsVramShare * card - w_.comfyInferenceBytes - comfyReserve();
    return bytesPerParam * s_.arch->denoiser.params <= forWeights;
  }

  // A card known only by its size may lack fp8 compute: the fp8 file in 16 bits is the range's top.
  void widenForFp8ComputeUnknown(Estimate& e) const {
    if (!s_.unetFp8 || !s_.unetDtypeByTool || cardComputesFp8().has_value() || !fitsForWeights(2)) return;
    GenerationSetup wide = s_;  // its own older releases' top too: their reason is already in the range
    wide.unetFp8 = wide.unetDtypeByTool = false;
    widenWith(e, Estimator(wide, w_, m_, gpu_).run().estimate,
              "ComfyUI loads an fp8 file in 16 bits on a card without fp8 compute (before RTX 40 / Ada) where they fit");
  }

  void addGpuPhases(GenerationEstimate& out) {
    Estimate& e = out.estimate;
    e.phases.push_back(textEncode());
    if (s_.clipEncode) e.phases.push_back(vaePhase(kVaeEncodePhase, s_.width, s_.height, false, out));
    if (preprocessorBytes() > 0) e.phases.push_back(preprocess());
    e.phases.push_back(denoise(kDenoisePhase, s_.width, s_.height, out));
    long w = s_.width, h = s_.height;
    if (s_.hiresScale > 1.0) {
      w = std::lround(s_.width * s_.hiresScale / 8.0) * 8;
      h = std::lround(s_.height * s_.hiresScale / 8.0) * 8;
      if (s_.upscale.scale > 0 && s_.upscale.beforeHires) e.phases.push_back(upscale());
      if (s_.latentUpscale.weights.bytes > 0) {
        latentUpscalePhase_ = e.phases.size();
        e.phases.push_back(latentUpscale());
      }
      if (!s_.hiresLatent) e.phases.push_back(vaePhase(kVaeEncodePhase, w, h, false, out));
      e.phases.push_back(denoise(kHiresPhase, w, h, out));
    }
    e.phases.push_back(vaePhase(kVaeDecodePhase, w, h, true, out));
    if (s_.upscale.scale > 0 && !(s_.upscale.beforeHires && s_.hiresScale > 1.0)) e.phases.push_back(upscale());
  }

  // A model loaded beside the diffusion model, with what it is and whether its name was known.
  static Component sideComponent(ComponentName name, const SideWeights& m) {
    return {name, m.bytes, m.label + ", " + fixedText(m.bytes / kGiB, 2) + " GiB" + (m.assumed ? " (its file name is none oomlint knows)" : ""),
            Term::Weights};
  }

  // ComfyUI's ImageUpscaleWithModel: it frees what other models hold for the upscale model and the fp32 image
  // on the GPU, then runs the model tile by tile, halving the tile after an out-of-memory down to the
  // smallest. The tile estimated is the first whose phase, at the top of its range, fits the card.
  PhaseEstimate upscale() const {
    const ModelUpscale& u = s_.upscale;
    const double image = static_cast<double>(u.width) * static_cast<double>(u.height) * 3 * 4 * s_.batchSize;
    for (int tile = u.tile;; tile /= 2) {
      const long tw = std::min<long>(tile, u.width), th = std::min<long>(tile, u.height);
      PhaseEstimate p{kUpscalePhase};
      p.components.push_back(fixed());
      p.components.push_back(sideComponent("upscale model weights", u.weights));
      p.components.push_back({"image on the GPU", image,
                              std::to_string(u.width) + "×" + std::to_string(u.height) + " px × 3 × 4 B (fp32) × " +
                                  std::to_string(s_.batchSize) + "; other models unloaded as needed",
                              Term::Activations});
      std::string how = std::to_string(tw) + "×" + std::to_string(th) + " px tile × " + fixedText(u.bytesPerInputPixel, 0) +
                        " B per input px (×" + std::to_string(u.scale) + ")";
      if (tile < u.tile) how += "; the " + std::to_string(tile * 2) + " px tile would not fit: ComfyUI halves it after the out-of-memory";
      p.components.push_back({"upscale tile", u.bytesPerInputPixel * static_cast<double>(tw) * static_cast<double>(th), how, Term::Activations});
      totalPhase(p, m_, s_.arch->coarse);
      if (p.highBytes <= static_cast<double>(gpu_.vramBytes) || tile / 2 < u.smallestTile) return p;
    }
  }

  // The positions of one sample of the first pass's latent (frames × height × width), which a latent upscale model takes.
  double firstPassLatentPositions() const {
    const Vae& vae = s_.arch->vae;
    const long spatial = std::max(1, vae.spatial);
    return static_cast<double>(latentFrames(vae, s_.frames)) * static_cast<double>(s_.width / spatial) *
           static_cast<double>(s_.height / spatial);
  }

  // ComfyUI builds the latent upscale model in its vae_dtype among bf16 and fp32: fp32 where the card has no bf16
  // (comfy/model_management.py should_use_bf16: compute capability 8 on), twice the bytes of the data's bf16 figures.
  double latentUpscaleScale() const { return gpu_.bf16ConvolutionsWithoutCudnn() ? 2 : 1; }

  // ComfyUI's LTXVLatentUpsampler: it frees its guess from the managed models, moves the upscale model to the GPU
  // outside the memory manager and runs it on the first pass's whole latent.
  PhaseEstimate latentUpscale() const {
    const LatentModelUpscale& u = s_.latentUpscale;
    const double positions = firstPassLatentPositions() * s_.batchSize, scale = latentUpscaleScale();
    const std::string dtype = scale > 1 ? " × 2 (fp32: the card has no bf16)" : "";
    PhaseEstimate p{kUpscalePhase};
    p.components.push_back(fixed());
    SideWeights weights = u.weights;
    weights.bytes *= scale;
    p.components.push_back(sideComponent("upscale model weights", weights));
    p.components.push_back({"upscale model working memory", u.bytesPerInputPosition * positions * scale,
                            fixedText(positions, 0) + " latent positions (frames × height × width × batch) × " +
                                fixedText(u.bytesPerInputPosition, 0) + " B" + dtype + "; other models unloaded as needed",
                            Term::Activations});
    return p;
  }

  // PyTorch 2.9-2.10 with cuDNN before 9.15 runs a bf16 nn.Conv3d without cuDNN, and the latent upscale model's are
  // outside ComfyUI's workaround (which covers the convolutions of comfy.ops): slow_conv3d's column buffer, one sample
  // at a time, is the range's top. In fp32 cuDNN runs them.
  void widenForConvolutionsWithoutCudnn(Estimate& e) const {
    if (!latentUpscalePhase_ || latentUpscaleScale() > 1) return;
    const LatentModelUpscale& u = s_.latentUpscale;
    PhaseEstimate& p = e.phases[*latentUpscalePhase_];
    const double columns = (u.vol2colBytesPerInputPosition - u.bytesPerInputPosition) * firstPassLatentPositions();
    p.range.push_back({"PyTorch 2.9-2.10 with cuDNN before 9.15 runs the upscale model's 3-D convolutions without cuDNN (" +
                           fixedText(u.vol2colBytesPerInputPosition, 0) + " B per latent position of a sample: slow_conv3d's column buffer)",
                       0, columns});
    p.highBytes += columns;
  }

  bool managed() const { return s_.tool != WebUiTool::A1111; }
  std::string tool() const { return std::string(displayName(s_.tool)); }

  Component fixed() const {
    return {"CUDA context and display", m_.cudaContextBytes + w_.displayBytes,
            "CUDA context and workspaces " + fixedText(m_.cudaContextBytes / kGiB, 1) + " GiB + the desktop and browser on the "
            "display GPU " + fixedText(w_.displayBytes / kGiB, 1) + " GiB",
            Term::Fixed};
  }

  Component unetWeights(double fraction = 1.0, std::string note = "") const {
    const Denoiser& d = s_.arch->denoiser;
    const double p = d.params * fraction;
    const std::string why = unetFp32ForCard_       ? ": " + tool() + " keeps a model that fits in fp32 on a card it runs no fp16 on"
                            : unetFp8FileIn16Bits_ ? ": ComfyUI loads the fp8 file in 16 bits on a card without fp8 compute"
                                                   : "";
    return {s_.family->unetActBytesPerLatentPixel > 0 ? "UNet weights" : "transformer weights", p * unetBytes_,
            paramsText(p) + " × " + fixedText(unetBytes_, 0) + " B (" + dtypeName(unetBytes_) + why + ")" + note, Term::Weights};
  }

  double textEncoderParams() const {
    double p = 0;
    for (const auto& te : s_.arch->textEncoders) p += te.params;
    return p;
  }

  Component teWeights() const {
    const double p = textEncoderParams();
    return {"text encoder weights", p * teBytes_, paramsText(p) + " × " + fixedText(teBytes_, 0) + " B (" + dtypeName(teBytes_) + ")",
            Term::Weights};
  }

  Component vaeWeights() const {
    const double p = s_.arch->vae.params;
    const std::string dtype = s_.vaeBf16 && vaeBytes_ == 2 ? "bf16" : dtypeName(vaeBytes_);
    const std::string why = !vaeFp32ForCard_                                   ? ""
                            : s_.vaeWithoutFp16 && gpu_.predatesBf16() && !cardWithoutFp16_ ? ": ComfyUI runs this VAE in bf16 or fp32 only, and the card has no bf16"
                                                                                               : ": " + tool() + " runs no fp16 on this card";
    return {"VAE weights", p * vaeBytes_, paramsText(p) + " × " + fixedText(vaeBytes_, 0) + " B (" + dtype + why + ")",
            Term::Weights};
  }

  Component cnWeights(bool onlyResident) const {
    double p = 0, bytes = 0, fp8 = 0;
    if (!s_.controlnetOnCpu) {  // --use-cpu controlnet: none on the GPU
      for (const auto& unit : s_.controlnets) {
        if (!unit.model || (onlyResident && cnLowVram_)) continue;
        p += unit.model->params;
        bytes += unit.model->params * (unit.fp8File ? 1 : cnBytes_);
        if (unit.fp8File) fp8 += unit.model->params;
      }
    }
    const std::string stored = fp8 <= 0 ? ", not the files' storage" : "; " + paramsText(fp8) + " of them kept in their fp8 files' 1 B";
    return {"ControlNet weights", bytes,
            std::to_string(s_.controlnets.size()) + " unit(s), " + paramsText(p) + " × " + fixedText(cnBytes_, 0) +
                (s_.tool == WebUiTool::ComfyUi ? " B (ComfyUI's inference dtype" + stored + ")" : " B (cast to the model's dtype)"),
            Term::Weights};
  }

  double latentPixels(long w, long h) const { return static_cast<double>(w / 8) * static_cast<double>(h / 8); }

  // The denoiser's activations for `elements` images in one forward (batch × the guidance passes run together).
  Component activations(long w, long h, int elements) const {
    const double scale = computeBytes_ / 2;
    if (s_.family->unetActBytesPerLatentPixel > 0) {
      const double k = s_.family->unetActBytesPerLatentPixel;
      return {"UNet activations", k * latentPixels(w, h) * elements * scale,
              fixedText(latentPixels(w, h), 0) + " latent px × " + std::to_string(elements) + " (batch × cond/uncond) × " +
                  fixedText(k * scale / 1000, 0) + " KB (" + w_.unetActSource + computeNote() + ")",
              Term::Activations};
    }
    const Denoiser& d = s_.arch->denoiser;
    const double references = referenceTokens();
    const double concat = concatTokens(w, h);
    const double tokens = static_cast<double>(imageTokens(*s_.arch, w, h, s_.frames) + d.textTokens) + references + concat;
    // The plain model's block (a merged LoRA adds nothing), ComfyUI's own where its census has one and ComfyUI's
    // model code runs it (a pack's whole-model sampler runs the pack's), unless the setup names another (a pack's
    // older releases).
    const ActivationCoefficients family = m_.activations(d.activationFamily);
    const double comfy = comfyBlocks() ? family.comfyUiInferenceBytesPerTokenChannel : 0;
    const double k = s_.blockBytesPerTokenChannel > 0 ? s_.blockBytesPerTokenChannel : comfy > 0 ? comfy : family.inferenceBytesPerTokenChannel;
    std::string of = references > 0 ? " (" + fixedText(references, 0) + " of them the reference images'" +
                                          (s_.referenceSizeAssumed ? ", one taken at the output's size: the workflow does not set it)" : ")")
                                    : "";
    if (concat > 0) {
      of += " (" + fixedText(concat, 0) + " of them the edit image's, joined to the noise" +
            (s_.imageSizeAssumed ? " at the model's default size: the workflow does not set the image's)" : ")");
    }
    return {"transformer activations", tokens * d.hidden * k * elements * scale,
            fixedText(tokens, 0) + " tokens" + of + " × " + std::to_string(d.hidden) + " ch × " + fixedText(k * scale, 0) +
                " B × " + std::to_string(elements) + " (batch × guidance passes)" + (scale > 1 ? " (" + computeNote().substr(2) + ")" : ""),
            Term::Activations};
  }
  Component activations(long w, long h) const { return activations(w, h, elements_); }

  // Why the activations are fp32 (the coefficients are 16-bit figures), for the components' text.
  std::string computeNote() const {
    if (computeBytes_ == 2) return "";
    return computeFp32ForCard_ && !s_.fp32Weights ? ", fp32: " + tool() + " computes in fp32 on a card it runs no fp16 on"
                                                                       : ", fp32";
  }

  // The reference images' latent tokens, which every forward carries beside the image's.
  double referenceTokens() const {
    const double step = static_cast<double>(s_.arch->vae.spatial) * std::max(1, s_.arch->denoiser.patch);
    return s_.referencePixels / (step * step);
  }

  // A concat_latent_image's tokens where the model joins it to the noise along the width (HiDream E1): the image's, of
  // the latent's size; every forward carries them, and ComfyUI's guess at the work (comfyGuess) does not count them.
  double concatTokens(long w, long h) const {
    if (!s_.concatsLatent || !s_.family->comfyConcatTokens) return 0;
    return static_cast<double>(imageTokens(*s_.arch, w, h, s_.frames));
  }

  // The largest self-attention's heads and tokens: a UNet's from its family (its full-resolution level), a
  // transformer's every token a block attends over (the text's too where attention is joint).
  std::pair<int, double> attentionShape(long w, long h) const {
    if (s_.family->attentionHeads > 0) {
      const long side = s_.family->attentionDownsample;
      return {s_.family->attentionHeads, static_cast<double>(w / side) * static_cast<double>(h / side)};
    }
    const Denoiser& d = s_.arch->denoiser;
    const double text = d.jointAttention ? d.textTokens : 0;
    return {d.heads, static_cast<double>(imageTokens(*s_.arch, w, h, s_.frames)) + text + referenceTokens() + concatTokens(w, h)};
  }

  // The attention score matrices a backend keeps live (0 for xFormers / SDP); adaptive backends slice
  // to what `free` leaves them.
  Component attention(long w, long h, double free, GenerationEstimate& out) const {
    const AttentionBackend* b = w_.backend(s_.attention);
    const auto [heads, tokens] = attentionShape(w, h);
    if (b == nullptr || heads == 0 || b->scoreFactor == 0) return {"attention scores", 0, "", Term::Activations};
    const double score = elements_ * heads * tokens * tokens * (b->fp32Scores ? 4.0 : computeBytes_);
    std::string how = b->label + ": " + fixedText(b->scoreFactor, 1) + " × score matrix " + std::to_string(elements_) + " × " +
                      std::to_string(heads) + " heads × " + fixedText(tokens, 0) + "² tokens" + (b->fp32Scores ? " × 4 B (float32)" : "");
    double bytes = b->scoreFactor * score;
    if (b->adaptive && b->needFactor * score > free) {
      const double need = b->needFactor * score;
      const double steps = free > 0 ? std::exp2(std::ceil(std::log2(need / free))) : INFINITY;
      if (free <= 0) {
        bytes = need / b->maxSlices;  // the weights alone do not fit: that, not the attention, is the OOM
        how += ", sliced as far as it goes";
      } else if (steps > b->maxSlices) {
        out.attentionTooLarge = true;
        bytes = need / b->maxSlices;
        how += ", more than " + std::to_string(b->maxSlices) + " slices: \"Not enough memory, use lower resolution\"";
      } else {
        bytes /= steps;
        how += " in " + fixedText(steps, 0) + " slices (it slices to the free memory)";
      }
    }
    return {"attention scores", bytes, how, Term::Activations};
  }

  Component vaeWork(long w, long h, bool decode, GenerationEstimate& out, double free) const {
    // Decoding an image with the KL-f8 decoder: its largest live set in this tool (webui.yaml vae_decoder).
    // Another VAE, a video (decoded chunk by chunk, times the frames in flight) and encoding: memory.yaml's
    // per-pixel figure for that VAE (the loader requires one for every WebUI family's VAE).
    const VaeConstants* c = m_.vae(s_.arch->vae.family);
    const int inFlight = s_.vaeDecode == VaeDecode::Tiled && s_.decodeFramesInFlight > 0 ? s_.decodeFramesInFlight : c ? c->videoFramesInFlight : 1;
    const double frames = s_.frames > 1 && c ? std::min<double>(s_.frames, std::max(1, inFlight)) : 1;
    const auto& klFamilies = w_.vaeDecoderFamilies;
    const bool structural = decode && s_.frames <= 1 &&
                            std::find(klFamilies.begin(), klFamilies.end(), s_.arch->vae.family) != klFamilies.end();
    const double k = structural ? w_.vaeDecodeBytesPerPixel(s_.tool) : c ? c->k(decode, s_.frames) : 0;
    const double px = static_cast<double>(w) * static_cast<double>(h) * frames;
    const ComponentName what = decode ? "VAE decode" : "VAE encode";
    // The structure is what a GPU cannot decode with less (a floor: its range reaches above only); the other
    // VAEs' figures are planners' maxima (Term::Vae).
    const Term term = structural ? Term::VaeFloor : Term::Vae;
    if (s_.vaeDecode == VaeDecode::Cpu) return {what, 0, "on the CPU", Term::Vae};
    if (decode && s_.vaeDecode == VaeDecode::Taesd) {
      const double taesdK = w_.taesdDecodeBytesPerPixel;
      return {what, taesdK * px * vaeBytes_, "TAESD: " + fixedText(px / 1e6, 2) + " Mpx × " + fixedText(taesdK, 0) + " B × " +
                                                 fixedText(vaeBytes_, 0) + " B",
              Term::Vae};
    }
    // A pack's decode that takes every frame of its call at once (HunyuanVideoWrapper's) holds no less than the
    // census floor of such a call (memory.yaml all_frames_decode_floor_k) over `area` px of each of its frames.
    auto atLeastAllFrames = [&](Component planned, double area) -> Component {
      if (!decode || s_.decodeFramesPerCall <= 0 || c == nullptr || c->allFramesDecodeFloorK <= 0 || s_.frames <= 1) return planned;
      const double callFrames = std::min(s_.frames, s_.decodeFramesPerCall);
      const double floor = c->allFramesDecodeFloorK * area * callFrames * vaeBytes_;
      if (floor <= planned.bytes) return planned;
      return {what, floor,
              fixedText(area / 1e6, 2) + " Mpx × " + fixedText(callFrames, 0) + " frames a call (all at once) × " +
                  fixedText(c->allFramesDecodeFloorK, 0) + " B × " + fixedText(vaeBytes_, 0) + " B (the decoder's measured floor)",
              Term::VaeFloor};
    };
    auto tiled = [&](std::string why) -> Component {
      const double tilePixels = s_.decodeTilePixels > 0 ? s_.decodeTilePixels : w_.decoderTile(static_cast<double>(gpu_.vramBytes)) * 8.0;
      const double tile = std::min<double>(tilePixels, static_cast<double>(std::max(w, h) / 8) * 8.0);
      return withoutCudnn(atLeastAllFrames({what, k * tile * tile * frames * vaeBytes_,
                                            why + fixedText(tile, 0) + "² px tiles × " + fixedText(k, 0) + " B × " + fixedText(vaeBytes_, 0) + " B",
                                            term},
                                           tile * tile),
                          tile * tile);
    };
    // A pack's clip encode tiles by its own switch alone; otherwise the decode's tiling serves both.
    if (!decode && s_.clipEncode ? s_.clipEncodeTiled : s_.vaeDecode == VaeDecode::Tiled) return tiled("tiled: ");
    double bytes = k * px * vaeBytes_;
    std::string how = fixedText(w, 0) + "×" + fixedText(h, 0) + " px × " + fixedText(k, 0) + " B/px/elem × " + fixedText(vaeBytes_, 0) +
                      " B (" + (frames > 1 ? fixedText(frames, 0) + " frames in flight" : std::string("one image at a time")) + "; " +
                      (structural ? w_.vaeDecoderSource : "memory.yaml's figure for this VAE") + ")";
    // A materialised mid-block attention (one head, every latent pixel a token) peaks on the latent grid,
    // not beside the full-resolution maps: the larger of the two.
    const AttentionBackend* b = w_.backend(s_.attention);
    if (b != nullptr && !b->patchesVae) {
      const double t = latentPixels(w, h);
      const double scores = w_.vaeNaiveAttentionMatrices * t * t * vaeBytes_;
      if (scores > bytes) {
        bytes = scores;
        how = "the VAE's unoptimised attention: " + fixedText(w_.vaeNaiveAttentionMatrices, 0) + " × " + fixedText(t, 0) + "² tokens × " +
              fixedText(vaeBytes_, 0) + " B (more than its convolutions' " + fixedText(k * px * vaeBytes_ / kGiB, 2) + " GiB)";
      } else {
        how += "; its unoptimised attention (" + fixedText(scores / kGiB, 2) + " GiB) peaks apart and lower";
      }
    }
    // Forge and ComfyUI retry a decode that runs out of memory in tiles (wl §2.2).
    const bool retries = decode ? s_.decodeRetriesTiled : !s_.clipEncode;  // a pack's clip encode never retries
    if (managed() && retries && bytes * (1 + m_.uncertaintyVae) > free) {
      out.decodeFallsBackToTiled = true;
      return tiled("falls back to tiled decoding: ");
    }
    return withoutCudnn(atLeastAllFrames({what, bytes, how, term}, static_cast<double>(w) * static_cast<double>(h)),
                        static_cast<double>(w) * static_cast<double>(h));
  }

  // A pack's bf16 VAE on a card before Ampere: PyTorch runs its 3-D convolutions without cuDNN, so each unfolds a
  // chunk's input into slow_conv3d's column buffer (memory.yaml vol2col_channels × 27 × the chunk's frames per pixel,
  // one sample), beside the coder's maps (× (4 × chunk + 2)): the larger of that and the planned figure, over `area` px.
  Component withoutCudnn(Component planned, double area) const {
    const VaeConstants* c = m_.vae(s_.arch->vae.family);
    if (!s_.vaeBf16 || !gpu_.bf16ConvolutionsWithoutCudnn() || c == nullptr || c->vol2colChannels <= 0) return planned;
    const auto [columns, maps] = vol2colPerPixel(c->vol2colChannels, s_.arch->vae.temporal, s_.frames);
    const double slow = (columns + maps) * area * 2;
    if (slow <= planned.bytes) return planned;
    return {planned.name, slow,
            fixedText(area / 1e6, 2) + " Mpx × (" + fixedText(columns, 0) + " B/px/elem slow_conv3d columns + " + fixedText(maps, 0) +
                " maps) × 2 B: " + gpu_.name + " (compute capability " +
                fixedText(gpu_.computeCapability, 1) + ") runs the bf16 VAE's convolutions without cuDNN",
            Term::VaeFloor};
  }

  // Weights ComfyUI loaded in part (some, not all) fill what the context (the phase's first component) leaves up to
  // its budget, which it measures: their sum does not move with either's uncertainty. Forge's budget divides what is
  // free (or is its slider's), so there the sum still moves.
  void fillsBudget(PhaseEstimate& p, Component& weights, double whole) const {
    if (!comfyBudget() || weights.bytes <= 0 || weights.bytes >= whole) return;
    weights.term = Term::Budget;
    p.components.front().term = Term::Budget;
  }

  bool comfyBudget() const { return s_.tool == WebUiTool::ComfyUi && (s_.loadMode == LoadMode::Normal || s_.loadMode == LoadMode::Low); }

  // ComfyUI under --highvram or --gpu-only: a diffusion model's offload device is the GPU, so every one loaded stays
  // there (unet_offload_device), through later samplers and the decode; --gpu-only keeps the text encoders too.
  bool comfyKeepsModels() const {
    return s_.tool == WebUiTool::ComfyUi && (s_.loadMode == LoadMode::High || s_.loadMode == LoadMode::GpuOnly);
  }

  // What such a run still holds beside a phase's own work: the other samplers' models (and, for the decode, the
  // first's), and under --gpu-only the text encoders.
  std::vector<Component> keptModels(bool withFirst) const {
    std::vector<Component> kept;
    if (!comfyKeepsModels()) return kept;
    const std::string why = s_.loadMode == LoadMode::High ? "--highvram keeps it on the GPU" : "--gpu-only keeps it on the GPU";
    if (withFirst) {
      Component first = unetWeights();
      first.how += "; " + why;
      kept.push_back(first);
    }
    for (const SideWeights& m : s_.otherDiffusionModels) {
      Component other = sideComponent("other diffusion model weights", m);
      other.how += ", another sampler's model; " + why;
      kept.push_back(other);
    }
    if (s_.loadMode == LoadMode::GpuOnly && !s_.textEncoderOnCpu) {
      Component te = teWeights();
      te.how += "; " + why;
      kept.push_back(te);
    }
    return kept;
  }

  double comfyReserve() const { return s_.reserveBytes >= 0 ? s_.reserveBytes : w_.comfyReserveBytes; }

  // Off NVIDIA (ROCm, XPU) a ComfyUI partial load takes at least a share of what is free, up to all but its inference
  // minimum, whatever its guess at the work asks to keep (webui.yaml comfy_min_weight_share_off_nvidia); 0 elsewhere.
  double comfyLeastWeights(double free) const {
    if (!comfyBudget() || !gpu_.rocmOrXpu()) return 0;
    return std::min(w_.comfyMinWeightShareOffNvidia * free, free - w_.comfyInferenceBytes - comfyReserve());
  }

  // ComfyUI's own guess at a sampler's work on `batch` latents, not a measurement (comfy/model_base.py memory_required,
  // webui.yaml comfy_sampler_memory_source): its latent's area × the compute dtype's bytes × 0.01 × the model class's
  // factor MiB; × 0.15 MiB per latent px without xFormers or PyTorch attention. The reference latents count once for
  // the weights' budget (estimate_memory keeps one shape per cond) and once per batch element and guidance pass when
  // it decides the batching (`references` copies); a packed latent (LTX-2's audio and video in one [B, 1, N] tensor)
  // counts its channels.
  double comfyGuess(long w, long h, int batch, int references) const {
    const Vae& vae = s_.arch->vae;
    const long spatial = s_.family->comfyLatentSpatial > 0 ? s_.family->comfyLatentSpatial : vae.spatial;
    const long frames = latentFrames(vae, s_.frames);
    const double channels = s_.packedLatent ? vae.latentChannels : 1;
    const double area = static_cast<double>(batch) * static_cast<double>(frames) * static_cast<double>(w / spatial) *
                            static_cast<double>(h / spatial) * channels +
                        references * s_.referencePixels / static_cast<double>(spatial * spatial);
    const AttentionBackend* b = w_.backend(s_.attention);
    const double mibPerPixel = b == nullptr || b->comfyGuessByDtype ? computeBytes_ * 0.01 : 0.15;
    const GenerationFamily& f = *s_.family;
    const double factor = f.comfyMemoryFactorPerWidth > 0 ? f.comfyMemoryFactorPerWidth * s_.arch->denoiser.hidden : f.comfyMemoryFactor;
    return area * mibPerPixel * factor * 1024 * 1024;
  }

  // What a Forge/ComfyUI memory manager loads of `bytes` of weights, given the free memory and what it keeps
  // free beside them (<0: its inference minimum and, ComfyUI's, its reserve).
  double loadedOf(double bytes, double free, double keep = -1) {
    double budget = bytes;
    const double reserve = keep >= 0 ? keep : s_.tool == WebUiTool::Forge ? w_.forgeInferenceBytes : w_.comfyInferenceBytes + comfyReserve();
    switch (s_.loadMode) {
      case LoadMode::High:
      case LoadMode::GpuOnly: return bytes;
      case LoadMode::NoVram: budget = 0; break;
      case LoadMode::Low:
      case LoadMode::Normal:
      case LoadMode::Dynamic:  // the encoders: cached whole where they fit (what they hold is evicted for later stages)
        if (s_.tool == WebUiTool::Forge) {
          if (bytes > free - reserve) {
            budget = std::max((free - reserve) / w_.forgePartialLoadDivisor, free - reserve - w_.forgePartialLoadMarginBytes);
          }
          if (s_.gpuWeightsBytes > 0) budget = std::min(budget, s_.gpuWeightsBytes);
        } else {
          budget = std::max(free - reserve, comfyLeastWeights(free));
        }
        break;
    }
    const double loaded = std::clamp(budget, 0.0, bytes);
    streamed_ = std::max(streamed_, bytes - loaded);
    return loaded;
  }

  PhaseEstimate textEncode() {
    PhaseEstimate p{kTextEncodePhase};
    p.components.push_back(fixed());
    Component te = teWeights();
    if (managed()) {
      // A wrapper's loader that keeps its model on the GPU from the load on: it is there while the encoders run, unless
      // it loads after them.
      double resident = 0;
      if (s_.modelOnGpuFromLoad && !s_.modelLoadsAfterEncodes) {
        Component model = unetWeights();
        model.how += "; its loader put it on the GPU, where it stays while the encoders run";
        resident = model.bytes;
        p.components.push_back(model);
      }
      if (s_.textEncoderOnCpu || textEncoderOnCpuNoFp16_) {
        te.bytes = 0;
        te.how = s_.textEncoderOnCpu ? "on the CPU (--lowvram)"
                 : cardWithoutFp16_  ? "on the CPU: " + tool() + " runs no fp16 on this card"
                                     : "on the CPU: " + tool() + " runs no fp16 under its fp32 flag";
      } else if (s_.textEncoderWhole) {
        te.how += "; its encode node moves all of it onto the GPU (no partial loading)";
      } else {
        const double whole = te.bytes;
        te.bytes = loadedOf(te.bytes, gpu_.vramBytes - fixed().bytes - resident);
        if (te.bytes < whole) {
          te.how += "; " + fixedText(te.bytes / kGiB, 1) + " GiB loaded, " + fixedText((whole - te.bytes) / kGiB, 1) + " GiB streamed from RAM (partial loading)";
          fillsBudget(p, te, whole);
        }
      }
      p.components.push_back(te);
      // A CLIP vision encoder runs beside the text encoders before sampling; the manager loads it the same way.
      double free = gpu_.vramBytes - fixed().bytes - resident - te.bytes;
      for (const SideWeights& v : s_.clipVision) {
        Component c = sideComponent("CLIP vision weights", v);
        c.bytes = loadedOf(c.bytes, free);
        free -= c.bytes;
        p.components.push_back(c);
      }
      return p;
    }
    p.components.push_back(te);
    if (s_.offload == Offload::Normal) {
      p.components.push_back(unetWeights());
      p.components.push_back(vaeWeights());
    }
    if (!s_.controlnets.empty()) p.components.push_back(cnWeights(true));
    return p;
  }

  // The annotators the units run (each kept loaded through the generation), unless on the CPU.
  double preprocessorBytes() const {
    if (s_.controlnetOnCpu) return 0;
    double bytes = 0;
    for (const auto& unit : s_.controlnets) {
      if (unit.preprocessor) bytes += unit.preprocessor->bytes;
    }
    return bytes;
  }

  // Before the first step: the annotators at processor_res beside what the previous phase left resident
  // (A1111 keeps the whole model without flags; with medvram/lowvram the text encoder was the last in).
  PhaseEstimate preprocess() {
    PhaseEstimate p{kPreprocessPhase};
    p.components.push_back(fixed());
    if (!managed()) {
      p.components.push_back(teWeights());
      if (s_.offload == Offload::Normal) {
        p.components.push_back(unetWeights());
        p.components.push_back(vaeWeights());
      }
      if (!s_.controlnets.empty()) p.components.push_back(cnWeights(true));
    }
    std::string names;
    for (const auto& unit : s_.controlnets) {
      if (unit.preprocessor && unit.preprocessor->bytes > 0) names += (names.empty() ? "" : " + ") + unit.preprocessor->id;
    }
    p.components.push_back({"preprocessor weights", preprocessorBytes(), names + " (fp32 annotator checkpoints)", Term::Weights});
    const double res = w_.preprocessorResolution;
    p.components.push_back({"preprocessor activations", w_.preprocessorActBytesPerPixel * res * res,
                            fixedText(res, 0) + "² px × " + fixedText(w_.preprocessorActBytesPerPixel, 0) + " B (a rough figure)",
                            Term::Activations});
    return p;
  }

  // What the ControlNet units add beside the UNet's activations. A unit's forward runs before the UNet's
  // (sd-webui-controlnet's hook, ComfyUI's get_control) and frees its own working memory, which is below the
  // UNet's (0.93 of it, scripts/census/controlnet.py); what stays live beside the UNet is its residuals, one
  // map per skip connection and one for the mid block. A Low VRAM unit's visiting weights leave before the
  // UNet runs too, so counting them beside the UNet's activations stands for its own forward's peak. A
  // transformer's ControlNet (SD3.5, FLUX) keeps one map of the image tokens per block it runs (webui.yaml
  // residual_maps; ComfyUI repeats references to them over the model's blocks, it does not copy); its own
  // forward, at the model's width, peaks no higher than the model's. A unit without that figure: a share of
  // the model's activations, a guess.
  Component controlnetActivations(long w, long h, int elements, const Component& unetActivations) const {
    const double units = static_cast<double>(s_.controlnets.size());
    if (units == 0) return {"ControlNet residuals", 0, "", Term::Activations};
    if (s_.family->unetActBytesPerLatentPixel > 0) {
      const double k = w_.controlnetUnetResidualElements;
      const double elementBytes = computeBytes_;
      return {"ControlNet residuals", k * latentPixels(w, h) * elements * elementBytes * units,
              fixedText(latentPixels(w, h), 0) + " latent px × " + fixedText(k, 0) + " elements (its residual maps) × " +
                  std::to_string(elements) + " (batch × cond/uncond) × " + fixedText(elementBytes, 0) + " B × " +
                  fixedText(units, 0) + " unit(s)",
              Term::Activations};
    }
    const double tokens = static_cast<double>(imageTokens(*s_.arch, w, h, s_.frames));
    const int hidden = s_.arch->denoiser.hidden;
    const double elementBytes = computeBytes_;
    double maps = 0, guessed = 0;
    for (const auto& unit : s_.controlnets) {
      if (unit.model != nullptr && unit.model->residualMaps > 0) maps += unit.model->residualMaps;
      else ++guessed;
    }
    Component c{"ControlNet activations", 0, "", Term::Activations};
    if (maps > 0) {
      c.bytes += maps * tokens * hidden * elementBytes * elements;
      c.how = fixedText(maps, 0) + " residual maps × " + fixedText(tokens, 0) + " image tokens × " + std::to_string(hidden) + " ch × " +
              std::to_string(elements) + " (batch × guidance passes) × " + fixedText(elementBytes, 0) + " B";
    }
    if (guessed > 0) {
      c.bytes += w_.controlnetActivationShare * unetActivations.bytes * guessed;
      c.how += (c.how.empty() ? "" : "; ") + fixedText(w_.controlnetActivationShare, 2) +
               " of the transformer's per unit without a figure (a guess, not measured)";
    }
    return c;
  }

  PhaseEstimate denoise(Phase name, long w, long h, GenerationEstimate& out) {
    PhaseEstimate p{name};
    p.components.push_back(fixed());
    Component act = activations(w, h);
    Component cnAct = controlnetActivations(w, h, elements_, act);
    // An IP-Adapter's layers sit beside the UNet's for every step, outside the memory manager's budget: what
    // they hold is not free when the manager sizes the weights it loads.
    double ipadapters = 0;
    for (const SideWeights& a : s_.ipadapters) ipadapters += a.bytes;
    if (managed()) {
      const double models = unetWeights().bytes + cnWeights(false).bytes;
      const bool whole = !s_.wholeModelSampler.empty();
      std::string keeps;  // what ComfyUI keeps free beside a partial load, for the text
      double loaded = models;  // a whole-model sampler moves all of it itself: nothing for the manager to size
      if (!whole && s_.tool == WebUiTool::ComfyUi) {
        // ComfyUI keeps free beside the weights it loads its own guess at one guidance pass's work, at least its
        // inference minimum, and its reserve (load_models_gpu's minimum_memory_required, webui-lowvram.md §5.2): a
        // model too large streams rather than running out, and work beyond the guess runs out. It batches cond and
        // uncond only while 1.5 × its guess at both fits what is free (comfy/samplers.py _calc_cond_batch).
        const double guess = comfyGuess(w, h, s_.batchSize, 1);
        const double keep = std::max(w_.comfyInferenceBytes, guess) + comfyReserve();
        const double free = gpu_.vramBytes - fixed().bytes - ipadapters;
        // Dynamic VRAM holds no weights for the work: it pages each layer in as it runs and evicts the cached ones
        // when an allocation needs the room (comfy-aimdo), so what it must have is the layers in flight (below).
        loaded = s_.loadMode == LoadMode::Dynamic ? 0 : loadedOf(models, free, keep);
        if (loaded < models && comfyBudget()) {
          keeps = comfyLeastWeights(free) > free - keep
                      ? "; off NVIDIA ComfyUI loads at least " + fixedText(w_.comfyMinWeightShareOffNvidia * 100, 0) +
                            "% of the free memory, whatever its guess at the work (" + fixedText(guess / kGiB, 1) + " GiB) asks to keep free"
                      : "; ComfyUI keeps " + fixedText(keep / kGiB, 1) + " GiB free for the sampler (its guess at the work, " + fixedText(guess / kGiB, 1) +
                            " GiB, or its " + fixedText(w_.comfyInferenceBytes / kGiB, 1) + " GiB minimum, + its " +
                            fixedText(comfyReserve() / kGiB, 1) + " GiB reserve)";
        }
        if (elements_ > s_.batchSize && 1.5 * comfyGuess(w, h, elements_, elements_) >= free - loaded) {
          act = activations(w, h, s_.batchSize);
          act.how += guidancePasses_ > 2 ? "; the " + std::to_string(guidancePasses_) + " conds one at a time (ComfyUI's guess at all of them, × 1.5, is over what is free)"
                                         : "; cond and uncond one at a time (ComfyUI's guess at both, × 1.5, is over what is free)";
          cnAct = controlnetActivations(w, h, s_.batchSize, act);
        }
      } else if (!whole) {
        loaded = loadedOf(models, gpu_.vramBytes - fixed().bytes - ipadapters);
      }
      Component weights = unetWeights();
      if (whole && s_.swappedParams > 0) {
        // A wrapper's block swap: those blocks stay in RAM and visit the GPU one (or a prefetch) at a time.
        loaded -= s_.swappedParams / s_.arch->denoiser.params * unetWeights().bytes;
        weights.how += "; " + s_.blockSwap;
      }
      weights.bytes = loaded;
      if (const double cn = cnWeights(false).bytes; cn > 0) weights.how += " + the ControlNet's " + fixedText(cn / kGiB, 1) + " GiB";
      const double block = s_.arch->denoiser.largestBlockParams * unetBytes_;
      if (s_.loadMode == LoadMode::Dynamic && !whole) {
        // What the work leaves stays cached between steps; the rest is copied in every step (slow, not an OOM).
        const double cache = std::clamp(gpu_.vramBytes - fixed().bytes - ipadapters - act.bytes - cnAct.bytes - block, 0.0, models);
        streamed_ = std::max(streamed_, models - cache);
        weights.how += "; dynamic VRAM: none held for the work — about " + fixedText(cache / kGiB, 1) +
                       " GiB stays cached where the work leaves room and is evicted when it needs it, " +
                       fixedText((models - cache) / kGiB, 1) + " GiB copied in each step";
      } else if (whole) {
        weights.how += "; " + s_.wholeModelSampler + " moves " + (s_.swappedParams > 0 ? "the rest" : "all of it") +
                       " onto the GPU itself (no partial loading, whatever the flags)";
      } else if (loaded < models) {
        weights.how += "; " + fixedText(loaded / kGiB, 1) + " GiB loaded, " + fixedText((models - loaded) / kGiB, 1) +
                       " GiB streamed from RAM each step (partial loading)" + keeps;
        fillsBudget(p, weights, models);
      }
      p.components.push_back(weights);
      for (Component& kept : keptModels(false)) p.components.push_back(std::move(kept));
      if (s_.tool == WebUiTool::ComfyUi && comfyBudget() && loaded < models && !whole) {
        // A layer left in RAM runs on its weight cast onto the GPU in the compute dtype, one per offload stream
        // (webui.yaml comfy_offload_streams).
        const double layer = s_.arch->denoiser.largestTensor() * computeBytes_;
        p.components.push_back({"streamed layers", w_.comfyOffloadStreams * layer,
                                std::to_string(w_.comfyOffloadStreams) + " × the largest weight, cast onto the GPU as it runs (one per offload stream)",
                                Term::Weights});
      }
      if (s_.loadMode == LoadMode::NoVram && !whole) {
        p.components.push_back({"streamed block", block, "the largest block while it runs", Term::Weights});
      } else if (s_.loadMode == LoadMode::Dynamic && !whole) {
        // A layer and the next one prefetched (one cast buffer per offload stream, two by default), or a whole block for
        // models that prefetch by block: the largest block bounds both.
        p.components.push_back({"streamed block", block, "the layers in flight, at most the largest block (dynamic VRAM)", Term::Weights});
      }
    } else if (s_.offload == Offload::Lowvram) {
      const double block = s_.family->lowvramBlockParams > 0 ? s_.family->lowvramBlockParams : s_.arch->denoiser.largestBlockParams;
      Component blockWeights = unetWeights(block / s_.arch->denoiser.params, " — the largest block; --lowvram keeps one at a time");
      const double cn = cnWeights(false).bytes;
      if (cnLowVram_ && cn > 0) {
        // A1111 sends everything to the CPU before each controlled forward: block and ControlNet alternate.
        if (cn > blockWeights.bytes) {
          blockWeights = cnWeights(false);
          blockWeights.how += " — alternates with the UNet blocks (ControlNet Low VRAM with --lowvram)";
        }
        p.components.push_back(blockWeights);
      } else {
        p.components.push_back(blockWeights);
        if (cn > 0) p.components.push_back(cnWeights(false));
      }
    } else {
      p.components.push_back(unetWeights());
      if (s_.offload == Offload::Normal) {
        p.components.push_back(teWeights());
        p.components.push_back(vaeWeights());
      }
      // With Low VRAM the ControlNet visits the GPU for its forward while the UNet stays resident (docs/webui.md,
      // "ControlNet"): the seed thread's extension (Feb 2023, scripts/cldm.py's hook) kept it there for the UNet's whole
      // forward, moving it back to the CPU only after; only the other stages are spared its weights.
      if (!s_.controlnets.empty()) p.components.push_back(cnWeights(false));
    }
    for (const SideWeights& a : s_.ipadapters) p.components.push_back(sideComponent("IP-Adapter weights", a));
    p.components.push_back(act);
    for (Component c : wrapperActivations(w, h)) p.components.push_back(c);
    p.components.push_back(featureCache(w, h));
    if (cnAct.bytes > 0) p.components.push_back(cnAct);
    if (Component cast = firstCast(act.bytes + cnAct.bytes); cast.bytes > 0) p.components.push_back(cast);
    double used = 0;
    for (const auto& c : p.components) used += c.bytes;
    p.components.push_back(attention(w, h, gpu_.vramBytes - used, out));
    return p;
  }

  // A feature cache's token maps (TaylorSeer's block outputs, WanVideoWrapper's EasyCache raw output), kept from step
  // to step for every batch element and guidance pass, however the passes are batched.
  Component featureCache(long w, long h) const {
    if (s_.cachedTokenMaps <= 0 || s_.family->unetActBytesPerLatentPixel > 0) return {"feature cache", 0, "", Term::Activations};
    const Denoiser& d = s_.arch->denoiser;
    const double tokens = static_cast<double>(imageTokens(*s_.arch, w, h, s_.frames) + d.textTokens) + referenceTokens() + concatTokens(w, h);
    const int elements = s_.batchSize * guidancePasses_;
    return {"feature cache", s_.cachedTokenMaps * tokens * d.hidden * 2.0 * elements,
            s_.featureCache + ": " + fixedText(s_.cachedTokenMaps, 0) + " maps × " + fixedText(tokens, 0) + " tokens × " +
                std::to_string(d.hidden) + " ch × 2 B × " + std::to_string(elements) + " (batch × guidance passes), kept between steps",
            Term::Activations};
  }

  // What a wrapper's forward keeps beside the activations: a dense bool attention mask over all tokens
  // (HunyuanVideoWrapper's sdpa mode, models.py), and the hints of a VACE module's blocks (one map of the tokens each,
  // made before the main blocks run).
  std::vector<Component> wrapperActivations(long w, long h) const {
    const Denoiser& d = s_.arch->denoiser;
    const double tokens = static_cast<double>(imageTokens(*s_.arch, w, h, s_.frames) + d.textTokens);
    std::vector<Component> out;
    if (s_.denseAttentionMask) {
      out.push_back({"attention mask", tokens * tokens, fixedText(tokens, 0) + "² tokens × 1 B: the dense bool mask its sdpa mode builds",
                     Term::Activations});
    }
    if (s_.persistentTokenMaps > 0) {
      const double bytes = s_.persistentTokenMaps * tokens * d.hidden * 2.0 * s_.batchSize;
      out.push_back({"VACE hints", bytes,
                     std::to_string(s_.persistentTokenMaps) + " blocks × " + fixedText(tokens, 0) + " tokens × " + std::to_string(d.hidden) +
                         " ch × 2 B, kept through the forward",
                     Term::Activations});
    }
    return out;
  }

  // A ControlNet its loader built in fp32 on the GPU (XLabs') is cast to 16 bits by the sampler's first run,
  // after the model is in: for that moment the fp32 copy stands where the activations will be. What it needs
  // beyond them.
  Component firstCast(double activations) const {
    double fp32 = 0;
    for (const auto& unit : s_.controlnets) {
      if (unit.fp32UntilSampled && unit.model) fp32 += unit.model->params * (4 - cnBytes_);
    }
    return {"ControlNet fp32 hold", std::max(0.0, fp32 - activations),
            "its loader built it in fp32 on the GPU; the sampler casts it after moving the model in: " + fixedText(fp32 / kGiB, 1) +
                " GiB more than the 16-bit copy for a moment, less the activations not yet made",
            Term::Weights};
  }

  PhaseEstimate vaePhase(Phase name, long w, long h, bool decode, GenerationEstimate& out) {
    PhaseEstimate p{name};
    p.components.push_back(fixed());
    p.components.push_back(vaeWeights());
    if (!managed()) {
      if (s_.offload == Offload::Normal) {
        p.components.push_back(unetWeights());
        p.components.push_back(teWeights());
      }
      if (!s_.controlnets.empty()) p.components.push_back(cnWeights(true));
    } else if (decode) {
      // After sampling (an encode may run before a loader has: ComfyUI's node order decides).
      for (Component& kept : keptModels(true)) p.components.push_back(std::move(kept));
    }
    if (!decode && s_.clipEncode) {
      const double px = static_cast<double>(w) * static_cast<double>(h) * s_.frames * s_.batchSize;
      p.components.push_back({"clip to encode", px * 3 * vaeBytes_,
                              fixedText(px / 1e6, 1) + " M px × 3 ch × " + fixedText(vaeBytes_, 0) + " B: the padded clip it encodes, on the GPU",
                              Term::Vae});
    }
    if (decode && s_.decodeOutputBytesPerPixel > 0) {
      const double px = static_cast<double>(w) * static_cast<double>(h) * s_.frames * s_.batchSize;
      p.components.push_back({"decoded clip", px * s_.decodeOutputBytesPerPixel,
                              fixedText(px / 1e6, 1) + " M output px × " + fixedText(s_.decodeOutputBytesPerPixel, 0) +
                                  " B: the decode node keeps the decoded frames on the GPU",
                              Term::Vae});
    }
    double used = 0;
    for (const auto& c : p.components) used += c.bytes;
    p.components.push_back(vaeWork(w, h, decode, out, gpu_.vramBytes - used));
    return p;
  }

  // Empty components go, except a text encoder that says where it went ("on the CPU (--lowvram)").
  void finish(PhaseEstimate& phase) const {
    std::erase_if(phase.components, [](const Component& c) { return c.bytes <= 0 && c.name != "text encoder weights"; });
    totalPhase(phase, m_, s_.arch->coarse);
  }

  const GenerationSetup& s_;
  const GpuTarget& gpu_;
  const MemoryModel& m_;
  const WebUiKnowledge& w_;
  double unetBytes_ = 2, teBytes_ = 2, vaeBytes_ = 2, cnBytes_ = 2;
  bool unetFp8FileIn16Bits_ = false;  // ComfyUI's unet_dtype loads the fp8 file in 16 bits on this card
  bool unetFp32ForCard_ = false;      // the weights in fp32 where they fit: ComfyUI on a GTX 16 card, Forge on Pascal too
  bool cardWithoutFp16_ = false;      // ComfyUI or Forge runs no fp16 on this card (should_use_fp16: GTX 16, Pascal)
  bool noFp16_ = false;               // should_use_fp16 fails: the card's, or --force-fp32 / --all-in-fp32
  bool textEncoderOnCpuNoFp16_ = false;  // ... so it runs the text encoders on the CPU
  bool computeFp32ForCard_ = false;   // ... so its own model code computes in fp32
  double computeBytes_ = 2;           // the activations' element bytes
  bool vaeFp32ForCard_ = false;  // the tool's own VAE in fp32: no fp16 on the card, or (ComfyUI) bf16 or fp32 only and no bf16
  int elements_ = 2;
  int guidancePasses_ = 2;
  bool cnLowVram_ = false;
  double streamed_ = 0;
  std::optional<std::size_t> latentUpscalePhase_;  // where addGpuPhases put the latent upscale model's phase
};

}  // namespace

GenerationEstimate estimateGeneration(const GenerationSetup& s, const WebUiKnowledge& webui, const MemoryModel& memory,
                                      const GpuTarget& gpu) {
  return Estimator(s, webui, memory, gpu).run();
}

}  // namespace oomlint
