#include "systems/aitk/host_ram.h"

#include <algorithm>
#include <string>
#include <vector>

#include "engine/estimate_core.h"

// Where things live, from AI Toolkit's source (ostris/ai-toolkit at 27a03a9):
// - loading: diffusers/transformers build the model on the CPU from the checkpoint in the training dtype;
//   a bf16 job keeps the bf16 checkpoint's own pages (mapped), another dtype converts them. Loaders that
//   quantize the whole transformer on the GPU move it there before the text encoder loads
//   (toolkit/stable_diffusion_model.py:681, :794-802; chroma_model.py:177); the others keep it on the CPU
//   until the model is assembled ("leave it on cpu for now", qwen_image.py:218-220), so the transformer and
//   the text encoder are in RAM together.
// - quantizing: quantize_model sends each block to the GPU, quantizes it and brings it back to the CPU
//   (toolkit/util/quantize.py:446-465); low_vram quantizes on the CPU. Both build a quantized copy while the
//   full-precision pages it came from stay mapped until their file (or shard) has no tensor left.
// - caching: text embeddings are encoded with the transformer and the VAE parked on the CPU
//   (dataloader_mixins.py:2314, SDTrainer.py:296-298); latents with everything but the VAE parked
//   (base_model.py:1562-1583, dataloader_mixins.py:1964), and cache_latents keeps each latent in RAM
//   (dataloader_mixins.py:2082-2084).
// - training: layer offloading keeps its share of Linear weights pinned on the CPU
//   (memory_management/manager_modules.py:230-271, :643); unload_text_encoder without caching moves the
//   text encoder to the CPU, caching frees it (SDTrainer.py:351-382); cached latents send the VAE to the CPU
//   (SDTrainer.py:314-318); Wan 2.2 A14B's low_vram parks the idle expert (wan22_14b_model.py:131-146);
//   low_vram's aggressive sampling parks the transformer while the text encoder or the VAE works.
// - the data loader's worker processes come from datasets[0] (toolkit/data_loader.py:727-735).

namespace oomlint {

namespace {

constexpr double kHostFp32 = 4.0;
constexpr double kHostBf16 = 2.0;

bool quantizesThroughCpu(const TrainingSetup& s) {
  return s.lowVram && (s.arch->lowVramDoes("quantize_on_cpu") || s.arch->lowVramDoes("park_modules"));
}
// Sampling waits with the transformer on the CPU only where low_vram's pipeline sends it away (the Wan classes' stages:
// before the decode, or while the prompts are encoded). Every other class samples under BaseModel's 'generate' device
// preset, transformer, text encoder and VAE on the GPU, whatever low_vram parked at load.
bool parksForSampling(const TrainingSetup& s) {
  return s.lowVram && (s.arch->lowVramDoes("decodes_alone") || s.arch->lowVramDoes("encodes_prompts_alone"));
}

// A size as people read it: small figures (a latent, a prefetched batch) in MiB.
std::string hostSizeText(double bytes) { return bytes < kGiB / 4 ? fixedText(bytes / (1024.0 * 1024.0), 1) + " MiB" : formatGiB(bytes); }

void addPart(std::vector<Component>& parts, Component c) {
  if (c.bytes > 0) parts.push_back(std::move(c));
}

class HostModel {
 public:
  HostModel(const TrainingSetup& s, const MemoryModel& m) : s_(s), m_(m), h_(m.host) {
    dtypeName_ = s.trainDtype.empty() ? "fp32" : s.trainDtype;
    dtype_ = dtypeBytesPerParam(m, s.trainDtype);
    const WeightFormat* train = m.format(dtypeName_);
    mapped_ = train != nullptr && train == m.format(h_.checkpointDtype);
    fp32Init_ = std::find(h_.fp32ModuleInit.begin(), h_.fp32ModuleInit.end(), s.arch->arch) != h_.fp32ModuleInit.end();
    // Loaders that quantize the whole transformer on the GPU put it there before the text encoder loads.
    sequentialLoad_ = s.arch->denoiser.quantizeWholeOnGpu;
  }

  std::vector<Component> fixed() const {
    return {{"Python, PyTorch and CUDA runtime", h_.processBaselineBytes, "the trainer process before any model is loaded", Term::Fixed},
            {"operating system and other programs", h_.systemReserveBytes, "the kernel, a desktop session and the AI Toolkit UI", Term::Fixed}};
  }

  // The transformer as its loader leaves it on the CPU, before quantizing or moving it.
  std::vector<Component> transformerAsLoaded() const {
    const double p = s_.arch->denoiser.params;
    if (fp32Init_) {
      return {{"transformer module (fp32)", p * kHostFp32, paramsText(p) + " × 4 B: the loader builds the module in fp32, then loads the weights into it"},
              {"checkpoint state dict", p * ckptBytes(), paramsText(p) + " × " + fixedText(ckptBytes(), 0) + " B (" + h_.checkpointDtype + " file, mapped)",
               Term::Weights, true}};
    }
    return {asLoaded("transformer as loaded", p)};
  }

  // The transformer's bytes once loaded (quantized if asked), as it sits on the CPU.
  double transformerBytes() const {
    const double p = s_.arch->denoiser.params;
    return s_.quantize ? p * quantizedBytesPerParam(m_, s_.qtype) : p * dtype_;
  }

  // While the text encoder loads (loaders that keep the transformer on the CPU until the model is built).
  std::vector<Component> transformerBeforeAssembly() const {
    std::vector<Component> out = pinnedTransformer();
    const double p = s_.arch->denoiser.params;
    const double rest = transformerBytes() * (1 - transformerOffload());
    if (s_.quantize) {
      addPart(out, {"transformer, quantized", rest, paramsText(p) + " × " + fixedText(quantizedBytesPerParam(m_, s_.qtype), 3) + " B/param (" + qtypeFormat(s_.qtype) +
                                                        "): brought back to the CPU after each block is quantized"});
    } else {
      Component c = asLoaded("transformer as loaded", p);
      c.bytes *= 1 - transformerOffload();
      addPart(out, c);
    }
    return out;
  }

  // The full-precision transformer and the quantized copy built from it on the CPU.
  std::vector<Component> quantizing() const {
    std::vector<Component> out = transformerAsLoaded();
    const Denoiser& d = s_.arch->denoiser;
    double params = d.largestBlockParams;
    std::string how = "one block at a time: each full-precision block is freed as it is quantized (the " + dtypeName_ + " weights are a converted copy)";
    if (mapped_ || fp32Init_) {
      params = s_.singleFileCheckpoint || fp32Init_ ? d.params : std::min(d.params, h_.checkpointShardBytes / ckptBytes());
      how = s_.singleFileCheckpoint || fp32Init_ ? "the whole model: its one checkpoint file stays mapped until its last tensor is replaced"
                                                 : "one " + fixedText(h_.checkpointShardBytes / 1e9, 0) + " GB shard's worth: a shard stays mapped until its last tensor is replaced";
    }
    addPart(out, {"quantized copy", params * quantizedBytesPerParam(m_, s_.qtype),
              paramsText(params) + " × " + fixedText(quantizedBytesPerParam(m_, s_.qtype), 3) + " B/param (" + qtypeFormat(s_.qtype) + "), " + how});
    return out;
  }

  // The transformer moved off the GPU while something else works (caching, aggressive sampling).
  std::vector<Component> transformerParked(const std::string& why) const {
    std::vector<Component> out = pinnedTransformer();
    addPart(out, {"transformer parked in RAM", transformerBytes() * (1 - transformerOffload()),
              paramsText(s_.arch->denoiser.params) + (s_.quantize ? " quantized (" + qtypeFormat(s_.qtype) + ")" : " in " + dtypeName_) + ": " + why});
    return out;
  }

  std::vector<Component> pinnedTransformer() const {
    std::vector<Component> out;
    addPart(out, pinned("offloaded transformer weights", transformerBytes(), transformerOffload()));
    return out;
  }

  double textEncoderBytes() const {
    const double p = s_.arch->textEncoderParams();
    if (!s_.quantizeTe) return p * dtype_;
    // Quantizers convert Linear layers only: the token-embedding tables stay bf16 (as the VRAM estimate counts them).
    double embeddings = 0;
    for (const auto& te : s_.arch->textEncoders) embeddings += m_.embeddingParams(te.name);
    const double q = quantizedBytesPerParam(m_, s_.qtypeTe);
    return p * q + embeddings * (kHostBf16 - q);
  }

  Component textEncoderAsLoaded() const { return asLoaded("text encoder as loaded", s_.arch->textEncoderParams()); }

  Component textEncoderParked(const std::string& why) const {
    return {"text encoder in RAM", textEncoderBytes() * (1 - textEncoderOffload()),
            paramsText(s_.arch->textEncoderParams()) + (s_.quantizeTe ? " quantized (" + qtypeFormat(s_.qtypeTe) + ")" : " in " + dtypeName_) + ": " + why};
  }

  Component pinnedTextEncoder() const { return pinned("offloaded text-encoder weights", textEncoderBytes(), textEncoderOffload()); }

  Component vae(ComponentName name, const std::string& why) const {
    const double p = s_.arch->vae.params;
    return {name, p * dtype_, paramsText(p) + " × " + fixedText(dtype_, 0) + " B (" + dtypeName_ + "): " + why};
  }

  // Wan 2.2 A14B with low_vram keeps the idle expert on the CPU.
  Component idleExperts() const {
    const Denoiser& d = s_.arch->denoiser;
    if (d.experts <= 1 || !s_.lowVram || !s_.arch->lowVramDoes("swap_experts")) return {"idle expert in RAM", 0, ""};
    const double share = (d.experts - 1.0) / d.experts;
    return {"idle expert in RAM", transformerBytes() * share * (1 - transformerOffload()),
            std::to_string(d.experts - 1) + " of " + std::to_string(d.experts) + " experts (" + paramsText(d.params * share) +
                "): low_vram keeps only the expert being trained on the GPU"};
  }

  Component workers() const {
    if (s_.numWorkers <= 0) return {"data-loader workers", 0, ""};
    double item = 0;
    std::string itemHow;
    for (const auto& d : s_.datasets) {
      const int frames = s_.isVideo() ? d.frames : 1;
      const double bytes = d.cachesLatents ? latentBytes(d) : static_cast<double>(d.resolution) * d.resolution * frames * h_.decodedBytesPerPixel;
      if (bytes * d.batch > item) {
        item = bytes * d.batch;
        itemHow = std::to_string(d.batch) + " × " + (d.cachesLatents ? hostSizeText(bytes) + " latent" : std::to_string(d.resolution) + "² px" +
                                                                                              (frames > 1 ? " × " + std::to_string(frames) + " frames" : "") +
                                                                                              " × " + fixedText(h_.decodedBytesPerPixel, 0) + " B");
      }
    }
    const double each = h_.workerBytes + s_.prefetchFactor * item;
    return {"data-loader workers", s_.numWorkers * each,
            std::to_string(s_.numWorkers) + " workers × (" + hostSizeText(h_.workerBytes) + " + " + std::to_string(s_.prefetchFactor) +
                " prefetched batches × " + (itemHow.empty() ? "0" : itemHow) + ")",
            Term::Fixed};
  }

  // One cached latent of a dataset at its bucket (channels × latent pixels × latent frames), in the training dtype.
  double latentBytes(const DatasetShape& d) const {
    const Vae& v = s_.arch->vae;
    const double side = static_cast<double>(d.resolution) / std::max(1, v.spatial);
    const int frames = s_.isVideo() ? d.frames : 1;
    return v.latentChannels * side * side * static_cast<double>(latentFrames(v, frames)) * dtype_;
  }

  bool sequentialLoad() const { return sequentialLoad_; }
  double transformerOffload() const { return offloads() ? s_.offloadTransformer : 0; }
  double textEncoderOffload() const { return offloads() ? s_.offloadTextEncoder : 0; }

 private:
  bool offloads() const { return s_.layerOffloading && s_.arch->layerOffloading; }
  double ckptBytes() const { return dtypeBytesPerParam(m_, h_.checkpointDtype); }

  Component asLoaded(ComponentName name, double params) const {
    if (mapped_) {
      return {name, params * dtype_, paramsText(params) + " × " + fixedText(dtype_, 0) + " B (" + dtypeName_ +
                                                 "): the checkpoint's own pages, mapped (Linux can drop them under pressure; Windows commits them)",
              Term::Weights, true};
    }
    return {name, params * dtype_,
            paramsText(params) + " × " + fixedText(dtype_, 0) + " B (" + dtypeName_ + "): converted from the " + h_.checkpointDtype + " checkpoint"};
  }

  Component pinned(ComponentName name, double bytes, double share) const {
    if (share <= 0) return {name, 0, ""};
    return {name, bytes * share * h_.pinnedRounding,
            formatGiB(bytes) + " × " + fixedText(share * 100, 0) + "% offloaded × " + fixedText(h_.pinnedRounding, 2) +
                " (pinned blocks round up to a power of two)",
            Term::Fixed};
  }

  const TrainingSetup& s_;
  const MemoryModel& m_;
  const HostRamConstants& h_;
  std::string dtypeName_;
  double dtype_ = 0;
  bool mapped_ = false;
  bool fp32Init_ = false;
  bool sequentialLoad_ = false;
};

// The worst of a phase's stages (modules come and go within it).
PhaseEstimate worstStage(Phase phase, const std::vector<std::vector<Component>>& stages, const MemoryModel& m, bool coarse) {
  PhaseEstimate worst{phase};
  for (const auto& parts : stages) {
    PhaseEstimate p{phase};
    for (const auto& c : parts) addPart(p.components, c);
    totalPhase(p, m, coarse);
    if (p.peakBytes > worst.peakBytes) worst = std::move(p);
  }
  return worst;
}

std::vector<Component> withParts(std::vector<Component> base, const std::vector<Component>& more) {
  base.insert(base.end(), more.begin(), more.end());
  return base;
}

}  // namespace

HostEstimate hostRamEstimate(const TrainingSetup& s, const MemoryModel& m, std::optional<std::uint64_t> ramBytes, bool logKilled) {
  const HostModel h(s, m);
  HostEstimate e;
  e.ramBytes = ramBytes;
  e.logKilled = logKilled;
  const bool coarse = s.arch->coarse;
  const std::vector<Component> fixed = h.fixed();
  const bool hasEncoder = s.arch->textEncoderParams() > 0;
  auto phase = [&](Phase id, const std::vector<std::vector<Component>>& stages) { e.phases.push_back(worstStage(id, stages, m, coarse)); };

  // load: the transformer as loaded; then the text encoder (and VAE), beside the transformer unless the
  // loader moved it to the GPU first.
  {
    std::vector<Component> encoder = {h.textEncoderAsLoaded(), h.vae("VAE as loaded", "loaded with the text encoder")};
    encoder[1].fileBacked = encoder[0].fileBacked;
    phase(Phase::Load, {withParts(fixed, h.transformerAsLoaded()),
                        withParts(withParts(fixed, h.sequentialLoad() ? std::vector<Component>{} : h.transformerBeforeAssembly()), encoder)});
  }
  // quantize: through the CPU unless the whole transformer is quantized on the GPU.
  if (s.quantize && (!h.sequentialLoad() || quantizesThroughCpu(s))) phase(Phase::Quantize, {withParts(fixed, h.quantizing())});
  // te_cache: captions are encoded with the transformer and the VAE parked.
  if (s.cacheTextEmbeddings) {
    std::vector<Component> parts = withParts(fixed, h.transformerParked("parked while the text encoder caches captions"));
    addPart(parts, h.vae("VAE parked in RAM", "parked while captions are encoded"));
    phase(Phase::TeCache, {parts});
  }
  // latent_cache: everything but the VAE parked (the text encoder is freed only once caching is done).
  if (s.anyLatentCache()) {
    std::vector<Component> parts = withParts(fixed, h.transformerParked("parked while the VAE encodes the dataset"));
    if (hasEncoder) addPart(parts, h.textEncoderParked("parked while the VAE encodes the dataset"));
    addPart(parts, h.pinnedTextEncoder());
    phase(Phase::LatentCache, {parts});
  }

  // Training and sampling: what stays in RAM while the GPU works.
  auto steady = [&](bool sampling) {
    std::vector<Component> parts = withParts(fixed, h.pinnedTransformer());
    if (!s.cacheTextEmbeddings) addPart(parts, h.pinnedTextEncoder());
    addPart(parts, h.idleExperts());
    if (s.unloadTextEncoder && !s.cacheTextEmbeddings && hasEncoder && !sampling) {
      addPart(parts, h.textEncoderParked("unload_text_encoder moves it to the CPU (caching would free it)"));
    }
    if (!s.vaeStaysResident() && !sampling) addPart(parts, h.vae("VAE parked in RAM", "every dataset caches latents, so it waits on the CPU"));
    addPart(parts, h.workers());
    if (!sampling || !parksForSampling(s)) return std::vector<std::vector<Component>>{parts};
    // low_vram's aggressive sampling: the transformer waits on the CPU while the text encoder or the VAE works.
    return std::vector<std::vector<Component>>{withParts(parts, h.transformerParked("parked while the text encoder or the VAE works (low_vram)"))};
  };
  if (s.baselineSample) phase(Phase::BaselineSample, steady(true));
  phase(Phase::TrainStep, steady(false));
  if (s.periodicSample) phase(Phase::Sample, steady(true));

  for (const auto& d : s.datasets) {
    if (!d.latentsInMemory) continue;
    e.notes.push_back("cached latents: datasets[" + std::to_string(d.index) + "] keeps " + hostSizeText(h.latentBytes(d)) + " per image at " +
                      std::to_string(d.resolution) + " px in RAM (cache_latents), for every image of the dataset: the count is not in the "
                      "config, so it is not in the figures");
  }
  concludeHostEstimate(e);
  return e;
}

}  // namespace oomlint
