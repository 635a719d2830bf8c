#include "plan_builder.h"

#include <algorithm>
#include <cmath>
#include <exception>

#include "engine/estimate_core.h"
#include "systems/aitk/system.h"
#include "base/knowledge/knowledge.h"

namespace oomlint::harness {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
// The harness runs every activation in bf16 (AI Toolkit trains under bf16 autocast); the attention's
// log-sum-exp, as in fused SDPA kernels, is fp32.
constexpr std::uint64_t kBf16 = 2;
constexpr std::uint64_t kFp32 = 4;

std::uint64_t wholeBytes(double bytes) { return bytes > 0 ? static_cast<std::uint64_t>(std::llround(bytes)) : 0; }

// Where each term of the estimate comes from on the GPU. Without block dimensions (UNets) the core's
// activations are a per-pixel constant, so there is no block to run: they are allocated as they stand.
Replay replayFor(Term term, bool hasBlocks) {
  switch (term) {
    case Term::Fixed:
      return Replay::Context;
    case Term::Weights:
    case Term::Trainable:
    case Term::Budget:
      return Replay::Resident;
    case Term::Activations:
    case Term::ActivationsMeasuredOnGpu:
    case Term::ActivationsUnmeasured:
      return hasBlocks ? Replay::Workload : Replay::Resident;
    case Term::Vae:
    case Term::VaeFloor:
      return Replay::Workload;
  }
  return Replay::Resident;
}

bool hasBlocks(const Denoiser& d) { return d.blocks > 0 && d.hidden > 0 && d.heads > 0; }

struct Sequence {
  std::int64_t imageTokens = 0;  // per sample, before control images
  std::int64_t total = 0;        // what the block's linears see per sample
};

// The sequence the core's estimate uses (estimate.cpp sequenceLength): image tokens, control images'
// tokens, and the text tokens when they join the image sequence.
Sequence sequenceOf(const TrainingSetup& s, long width, long height, int frames, int controls) {
  const Denoiser& d = s.arch->denoiser;
  Sequence seq;
  seq.imageTokens = imageTokens(*s.arch, width, height, frames);
  seq.total = std::llround(static_cast<double>(seq.imageTokens) * (1 + d.controlTokenFactor * controls));
  if (d.jointAttention && d.textTokens > 0) seq.total += d.textTokens;
  return seq;
}

int latentFramesOf(const Architecture& arch, int frames) {
  return frames > 1 ? (frames - 1) / std::max(1, arch.vae.temporal) + 1 : 1;
}

// The tensors one block keeps for its backward when it runs with grad, in the harness's reference block:
// pre-norm, fused QKV, attention (output and log-sum-exp), residual, [cross-attention], pre-norm, MLP.
// LoRA's own inputs are these same tensors, so adapters add no saved activations beyond their rank.
std::vector<SavedTensor> savedTensors(const BlockShape& b) {
  const std::uint64_t rows = static_cast<std::uint64_t>(b.batch) * static_cast<std::uint64_t>(b.tokens);
  const std::uint64_t h = static_cast<std::uint64_t>(b.hidden);
  const std::uint64_t lse =
      static_cast<std::uint64_t>(b.batch) * static_cast<std::uint64_t>(b.heads) * static_cast<std::uint64_t>(b.tokens) * kFp32;
  std::vector<SavedTensor> saved = {
      {"block input", rows * h * kBf16},      {"norm1 output", rows * h * kBf16}, {"qkv", rows * 3 * h * kBf16},
      {"attention output", rows * h * kBf16}, {"attention log-sum-exp", lse},     {"residual 1", rows * h * kBf16},
  };
  if (b.crossTokens > 0) {
    const std::uint64_t textRows = static_cast<std::uint64_t>(b.batch) * static_cast<std::uint64_t>(b.crossTokens);
    saved.push_back({"cross norm output", rows * h * kBf16});
    saved.push_back({"cross q", rows * h * kBf16});
    saved.push_back({"cross kv", textRows * 2 * h * kBf16});
    saved.push_back({"cross attention output", rows * h * kBf16});
    saved.push_back({"cross log-sum-exp", lse});
    saved.push_back({"residual 2", rows * h * kBf16});
  }
  const std::uint64_t inner = static_cast<std::uint64_t>(b.mlpInner);
  saved.push_back({"norm2 output", rows * h * kBf16});
  saved.push_back({"mlp up", rows * inner * kBf16});
  saved.push_back({"mlp activation", rows * inner * kBf16});
  return saved;
}

std::uint64_t sum(const std::vector<SavedTensor>& tensors) {
  std::uint64_t total = 0;
  for (const auto& t : tensors) total += t.bytes;
  return total;
}

BlockShape blockShape(const Denoiser& d, int batch, std::int64_t tokens) {
  BlockShape b;
  b.batch = batch;
  b.tokens = tokens;
  b.hidden = d.hidden;
  b.heads = d.heads;
  b.headDim = d.heads > 0 ? d.hidden / d.heads : 0;
  // Cross-attention models read the text as K/V of their own length (architectures.yaml text_tokens).
  b.crossTokens = !d.jointAttention && d.textTokens > 0 ? d.textTokens : 0;
  // mlp_ratio is the MLP's inner width over h; for SwiGLU models it is the gate/up width, and the
  // harness runs a plain GELU MLP of that width (the gate's extra GEMM is not modelled).
  b.mlpInner = std::llround(d.mlpRatio * d.hidden);
  const std::int64_t m = static_cast<std::int64_t>(batch) * tokens;
  const std::int64_t h = d.hidden;
  b.gemms.push_back({"qkv", m, 3 * h, h});
  b.gemms.push_back({"attention out", m, h, h});
  b.attentions.push_back({"self-attention", batch, d.heads, tokens, tokens, b.headDim});
  if (b.crossTokens > 0) {
    b.gemms.push_back({"cross q", m, h, h});
    b.gemms.push_back({"cross kv", static_cast<std::int64_t>(batch) * b.crossTokens, 2 * h, h});
    b.gemms.push_back({"cross out", m, h, h});
    b.attentions.push_back({"cross-attention", batch, d.heads, tokens, b.crossTokens, b.headDim});
  }
  b.gemms.push_back({"mlp up", m, b.mlpInner, h});
  b.gemms.push_back({"mlp down", m, h, b.mlpInner});
  b.saved = savedTensors(b);
  return b;
}

double weightBytesPerParam(const MemoryModel& m, const std::string& dtype) {
  const WeightFormat* f = m.format(dtype.empty() ? "fp32" : dtype);
  return f ? f->bytesPerParam : 4.0;
}

// Whether the resident transformer buffer can serve the GEMMs as bf16 weights: only when the
// estimate counts it as plain 2-byte weights, all of them on the GPU.
void chooseWeightSource(const TrainingSetup& s, const MemoryModel& m, const PhasePlan& phase, DenoiserWorkload& w) {
  std::uint64_t linearBytes = 0;
  for (const auto& g : w.block.gemms) linearBytes += static_cast<std::uint64_t>(g.n * g.k) * kBf16;
  std::uint64_t resident = 0;
  for (const auto& c : phase.components) {
    if (c.name == "transformer weights" && c.replay == Replay::Resident) resident = c.bytes;
  }
  if (s.quantize) {
    w.weightsNote = "quantized weights (" + (s.qtype.empty() ? std::string("qfloat8") : s.qtype) +
                    "): each linear dequantizes a transient bf16 copy for its GEMM";
  } else if (weightBytesPerParam(m, s.trainDtype) != 2.0) {
    w.weightsNote = "weights in " + (s.trainDtype.empty() ? std::string("fp32") : s.trainDtype) +
                    ": each linear casts a transient bf16 copy for its GEMM (autocast)";
  } else if (s.layerOffloading && s.arch->layerOffloading && s.offloadTransformer > 0) {
    w.weightsNote = "layer offloading: each linear's weight arrives as a transient bf16 copy";
  } else if (resident < linearBytes) {
    w.weightsNote = "the resident transformer buffer is smaller than one block's linears: transient bf16 copies";
  } else {
    w.weightsFromResident = true;
  }
}

// The dataset shape whose activations the estimate counted: for a DiT the bytes grow with batch × sequence.
DatasetShape largestShape(const TrainingSetup& s) {
  std::vector<DatasetShape> shapes = s.datasets;
  if (shapes.empty()) shapes.push_back({});
  const DatasetShape* best = &shapes.front();
  double bestRows = -1;
  for (const auto& shape : shapes) {
    const int frames = s.isVideo() ? shape.frames : 1;
    const double rows = static_cast<double>(shape.batch) *
                        static_cast<double>(sequenceOf(s, shape.resolution, shape.resolution, frames, shape.controls).total);
    if (rows > bestRows) {  // strict: the first of equals, as the estimate keeps it
      bestRows = rows;
      best = &shape;
    }
  }
  return *best;
}

void checkAgainst(double planned, double estimated, const std::string& what, std::vector<std::string>& notes) {
  if (estimated <= 0) return;
  if (std::fabs(planned - estimated) > 1e-6 * estimated) {
    notes.push_back(what + ": the plan's shapes give " + std::to_string(wholeBytes(planned)) + " B where the estimate has " +
                    std::to_string(wholeBytes(estimated)) +
                    " B (the core's activation formula changed; update plan_builder.cpp)");
  }
}

double componentBytes(const PhaseEstimate& phase, std::string_view name) {
  for (const auto& c : phase.components) {
    if (c.name == name) return c.bytes;
  }
  return 0;
}

DenoiserWorkload trainingWorkload(const TrainingSetup& s, const MemoryModel& m, const PhaseEstimate& estimated,
                                  const PhasePlan& phase, std::vector<std::string>& notes) {
  const Denoiser& d = s.arch->denoiser;
  const DatasetShape shape = largestShape(s);
  DenoiserWorkload w;
  w.training = true;
  w.checkpointing = s.gradientCheckpointing;
  w.blocks = d.blocks;
  w.frames = s.isVideo() ? shape.frames : 1;
  w.latentFrames = latentFramesOf(*s.arch, w.frames);
  w.resolution = w.width = w.height = shape.resolution;
  const Sequence seq = sequenceOf(s, shape.resolution, shape.resolution, w.frames, shape.controls);
  w.imageTokens = seq.imageTokens;
  w.block = blockShape(d, shape.batch, seq.total);
  if (w.checkpointing) {
    // Gradient checkpointing keeps each block's input; backward re-runs one block with grad.
    w.keptPerBlock = {w.block.saved.front()};
    w.recomputed = w.block.saved;
    w.keptBytes = static_cast<std::uint64_t>(w.blocks) * sum(w.keptPerBlock) + sum(w.recomputed);
  } else {
    w.keptPerBlock = w.block.saved;
    w.keptBytes = static_cast<std::uint64_t>(w.blocks) * sum(w.keptPerBlock);
  }
  const double tokenChannels = static_cast<double>(shape.batch) * static_cast<double>(seq.total) * d.hidden;
  w.keptBytesPerTokenChannel = static_cast<double>(sum(w.block.saved)) / tokenChannels;
  if (w.block.crossTokens > 0) {
    // The text encoder's output as the blocks read it, already projected to the model width (the
    // core has no text-projection dims; T5/umT5 outputs are wider, a few MiB either way).
    w.textEmbeddingBytes = static_cast<std::uint64_t>(shape.batch) * static_cast<std::uint64_t>(w.block.crossTokens) *
                           static_cast<std::uint64_t>(d.hidden) * kBf16;
  }
  const ActivationCoefficients a = m.activations(d.activationFamily);
  const double perBlock = (d.blocks - 1) * (w.checkpointing ? m.checkpointBytesPerTokenChannel : a.blockBytesPerTokenChannel) +
                          a.recomputeBytesPerTokenChannel;
  checkAgainst(perBlock * tokenChannels * m.activationMultiplier, componentBytes(estimated, "activations"),
               "train_step activations", notes);
  if (s.extraForwardPasses > 0) {
    notes.push_back("train_step: " + std::to_string(s.extraForwardPasses) +
                    " extra forward pass(es) without grad (preservation, guidance losses) are not replayed: they free their "
                    "activations before the step's own forward");
  }
  chooseWeightSource(s, m, phase, w);
  return w;
}

DenoiserWorkload samplingWorkload(const TrainingSetup& s, const MemoryModel& m, const PhaseEstimate& estimated,
                                  const PhasePlan& phase, std::vector<std::string>& notes) {
  const Denoiser& d = s.arch->denoiser;
  DenoiserWorkload w;
  w.training = false;
  w.blocks = d.blocks;
  // The conditional and unconditional pass in one batch, where the pipeline batches them.
  w.cfgPasses = d.cfgInSampling && d.cfgBatched && s.guidanceScale > 1 ? 2 : 1;
  w.frames = s.isVideo() ? s.sampleFrames : 1;
  w.latentFrames = latentFramesOf(*s.arch, w.frames);
  w.width = s.sampleWidth;
  w.height = s.sampleHeight;
  w.resolution = std::max(s.sampleWidth, s.sampleHeight);
  const Sequence seq = sequenceOf(s, s.sampleWidth, s.sampleHeight, w.frames, 0);
  w.imageTokens = seq.imageTokens;
  w.block = blockShape(d, w.cfgPasses, seq.total);
  const double tokenChannels = static_cast<double>(w.cfgPasses) * static_cast<double>(seq.total) * d.hidden;
  w.keptBytesPerTokenChannel = static_cast<double>(sum(w.block.saved)) / tokenChannels;
  if (w.block.crossTokens > 0) {
    w.textEmbeddingBytes = static_cast<std::uint64_t>(w.cfgPasses) * static_cast<std::uint64_t>(w.block.crossTokens) *
                           static_cast<std::uint64_t>(d.hidden) * kBf16;
  }
  const ActivationCoefficients a = m.activations(d.activationFamily);
  const double inference = s.fullFinetune ? a.inferenceBytesPerTokenChannel : a.loraInferenceBytesPerTokenChannel;
  checkAgainst(tokenChannels * inference, componentBytes(estimated, "sampling activations"),
               std::string(toString(estimated.phase)) + " sampling activations", notes);
  chooseWeightSource(s, m, phase, w);
  return w;
}

// `decode`: a sampling decode; else an encode, of the caching datasets or (`inStep`) of those encoded in the step.
VaeWorkload vaeWorkload(const TrainingSetup& s, const MemoryModel& m, bool decode, bool inStep, double workBytes) {
  VaeWorkload v;
  v.decode = decode;
  v.workBytes = wholeBytes(workBytes);
  if (decode) {
    v.width = s.sampleWidth;
    v.height = s.sampleHeight;
    v.frames = s.isVideo() ? s.sampleFrames : 1;
  } else {
    // The dataset the estimate's encode figure came from: the largest pixels × frames in flight (× batch in the step).
    const VaeConstants* k = m.vae(s.arch->vae.family);
    const int inFlightMax = k ? std::max(1, k->videoFramesInFlight) : 1;
    double best = -1;
    for (const auto& shape : s.datasets) {
      if (shape.cachesLatents == inStep) continue;
      const int frames = s.isVideo() ? shape.frames : 1;
      const double size = static_cast<double>(shape.resolution) * shape.resolution * std::min(frames, inFlightMax) * (inStep ? shape.batch : 1);
      if (size > best) {
        best = size;
        v.width = v.height = shape.resolution;
        v.frames = frames;
      }
    }
  }
  const Vae& vae = s.arch->vae;
  v.latentFrames = latentFramesOf(*s.arch, v.frames);
  v.latentChannels = vae.latentChannels;
  v.latentWidth = std::max(1, v.width / std::max(1, vae.spatial));
  v.latentHeight = std::max(1, v.height / std::max(1, vae.spatial));
  v.latentBytes = static_cast<std::uint64_t>(v.latentChannels) * static_cast<std::uint64_t>(v.latentWidth) *
                  static_cast<std::uint64_t>(v.latentHeight) * static_cast<std::uint64_t>(v.latentFrames) * kBf16;
  return v;
}

}  // namespace

PlanInput analyzeForReplay(const Input& input, const AnalyzeOptions& options) {
  PlanInput out;
  out.report = analyzeInput(input, options);
  if (!out.report.estimate) return out;
  try {
    out.setup = AitkSystem::estimatedSetup(input, knowledge(), options.limits);  // the setup the estimate was made for
  } catch (const std::exception&) {
    out.setup.reset();  // the report already says what went wrong
  }
  return out;
}

std::optional<ReplayPlan> buildReplayPlan(const PlanInput& input, const MemoryModel& model, std::string* why) {
  if (!input.report.estimate || !input.setup) {
    if (why) *why = input.report.unreadable ? "the config cannot be read" : "no estimate (unknown model or not a training job)";
    return std::nullopt;
  }
  return buildReplayPlan(input.report.path, *input.report.estimate, *input.setup, model);
}

ReplayPlan buildReplayPlan(const std::string& config, const Estimate& estimate, const TrainingSetup& setup,
                           const MemoryModel& model) {
  const Architecture& arch = *setup.arch;
  ReplayPlan plan;
  plan.config = config;
  plan.architecture = arch.arch + " (" + arch.label + ")";
  plan.gpu = estimate.gpu.describe();
  plan.gpuBytes = estimate.gpu.vramBytes;
  plan.verdict = std::string(toString(estimate.verdict));
  plan.coarse = estimate.coarse;
  const bool blocks = hasBlocks(arch.denoiser);
  if (!blocks) {
    plan.notes.push_back(arch.arch +
                         " has no transformer block dimensions (a UNet): its activations are allocated at the "
                         "estimated size instead of being produced by kernels");
  } else if (arch.denoiser.hidden % arch.denoiser.heads != 0) {
    plan.notes.push_back("hidden " + std::to_string(arch.denoiser.hidden) + " is not a multiple of " +
                         std::to_string(arch.denoiser.heads) + " heads: the attention runs with head dim " +
                         std::to_string(arch.denoiser.hidden / arch.denoiser.heads));
  }
  for (const PhaseEstimate& estimated : estimate.phases) {
    PhasePlan phase;
    phase.name = std::string(toString(estimated.phase));
    phase.estimatePeakBytes = estimated.peakBytes;
    phase.uncertaintyBytes = estimated.aboveBytes();
    bool activations = false;
    const Component* vae = nullptr;
    for (const Component& c : estimated.components) {
      const Replay replay = replayFor(c.term, blocks);
      phase.components.push_back({std::string(c.name), wholeBytes(c.bytes), replay, c.how});
      if (replay == Replay::Workload && isActivations(c.term)) activations = true;
      if (c.term == Term::Vae || c.term == Term::VaeFloor) vae = &c;
    }
    if (activations) {
      phase.denoiser = phase.name == "train_step" ? trainingWorkload(setup, model, estimated, phase, plan.notes)
                                                  : samplingWorkload(setup, model, estimated, phase, plan.notes);
    }
    if (vae != nullptr) {
      // Sampling phases decode; latent caching encodes the caching datasets, the step those it encodes itself.
      const bool inStep = estimated.phase == Phase::TrainStep;
      phase.vae = vaeWorkload(setup, model, !inStep && estimated.phase != Phase::LatentCache, inStep, vae->bytes);
    }
    plan.phases.push_back(std::move(phase));
  }
  return plan;
}

CapPlan capPlan(const ReplayPlan& plan, double capGib) {
  CapPlan cap;
  cap.capGib = capGib;
  cap.capBytes = static_cast<std::uint64_t>(capGib * kGiB);
  const double card = static_cast<double>(cap.capBytes);
  const PhasePlan* peak = nullptr;
  for (const PhasePlan& phase : plan.phases) {
    PhaseExpectation e{phase.name, phase.estimatePeakBytes, phase.uncertaintyBytes, Expectation::Fits};
    // The core's verdict rule (estimate.cpp), applied to each phase rather than to the peak alone.
    if (phase.estimatePeakBytes > card)
      e.expect = Expectation::Oom;
    else if (card - phase.estimatePeakBytes <= phase.uncertaintyBytes)
      e.expect = Expectation::Either;
    cap.phases.push_back(e);
    if (peak == nullptr || phase.estimatePeakBytes > peak->estimatePeakBytes) peak = &phase;
  }
  for (const auto& e : cap.phases) {
    if (peak != nullptr && e.phase == peak->name) {
      cap.overall = e.expect;
      break;
    }
  }
  return cap;
}

}  // namespace oomlint::harness
