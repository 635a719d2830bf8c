// The estimator's arithmetic, checked against a configuration whose every component was computed by
// hand (the numbers in the comments), on a synthetic model so the test does not move with the data.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>

#include "engine/estimate_core.h"
#include "systems/aitk/estimate.h"
#include "systems/aitk/system.h"
#include "test_support.h"

using namespace oomlint;

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

Architecture paperModel() {
  Architecture a;
  a.arch = "paper";
  a.label = "Paper DiT";
  a.kind = "image";
  a.denoiser.params = 1e9;
  a.denoiser.blocks = 10;
  a.denoiser.hidden = 1000;
  a.denoiser.patch = 2;
  a.denoiser.textTokens = 100;
  a.denoiser.jointAttention = true;
  a.denoiser.largestBlockParams = 1e8;
  a.denoiser.loraParamsPerRank = 1e5;
  a.denoiser.cfgInSampling = true;
  a.textEncoders = {{"te", 5e8}};
  a.vae = {"sd", 1e8, 16, 8, 1};
  a.coarse = false;
  return a;
}

MemoryModel paperConstants() {
  MemoryModel m;
  m.weightFormats = {{"bf16", {}, 2, 0}, {"fp32", {}, 4, 0}, {"qfloat8", {}, 1, 0}};
  m.optimizers = {{"adamw8bit", false, 2}, {"adamw", false, 8}};
  m.vaes = {{"sd", 2000, 1000, 1}};
  m.loraWeightBytes = 4;
  m.loraGradBytes = 4;
  m.checkpointBytesPerTokenChannel = 2;
  m.blockBytesPerTokenChannel = 40;
  m.recomputeBytesPerTokenChannel = 50;
  m.activationMultiplier = 1.0;
  m.inferenceBytesPerTokenChannel = 10;
  m.loraInferenceBytesPerTokenChannel = 12;
  m.cudaContextBytes = 512 * kMiB;
  m.allocatorFraction = 0.1;
  m.uncertaintyWeights = 0;
  m.uncertaintyTrainable = 0;
  m.uncertaintyActivations = 0.5;
  // The paper model's block has no census of its own: its coefficients are the defaults, as unmeasured.
  m.uncertaintyActivationsUnmeasured = 0.5;
  m.uncertaintyActivationsMeasuredOnGpu = 0.2;
  m.uncertaintyVae = 0;
  m.uncertaintyFixedFraction = 0;
  // The values MemoryModel's members defaulted to before the loader lost its fallbacks (rules/schema/).
  m.emaResident = true;
  m.layerOffloadRingLinears = 4;
  m.uncertaintyCoarseExtra = 0.25;
  return m;
}

// The card the hand-computed cases run against: 8 GiB.
GpuTarget paperCard() { return {"paper card", static_cast<std::uint64_t>(8.0 * 1024 * kMiB)}; }

TrainingSetup paperSetup(const Architecture& arch) {
  TrainingSetup s;
  s.arch = borrowed(arch);
  s.trainDtype = "bf16";
  s.quantize = true;
  s.qtype = "qfloat8";
  s.quantizeTe = false;
  s.cacheTextEmbeddings = true;
  s.rank = 16;
  s.optimizer = "adamw8bit";
  s.gradientCheckpointing = true;
  s.datasets = {{0, 1024, 1, 1, 0, true}};
  s.sampleWidth = s.sampleHeight = 1024;
  s.guidanceScale = 4;
  return s;
}

// A Wan-like video model whose low_vram tiles the sampling decode, and a VAE of round figures: 3000 B per pixel of a
// frame to decode, 1500 for an image, 2 RGB clips beside it, 256 px tiles.
Architecture tiledVideoModel() {
  Architecture video = paperModel();
  video.kind = "video";
  video.wanFamily = true;
  video.vae = {"vid", 1e8, 16, 8, 4};
  video.lowVramKinds = {"tiled_vae"};
  video.lowVramTilesSince = "886c2aec (2026-07-10)";  // as architectures.yaml's Wan classes: untiled before it
  return video;
}

MemoryModel tiledVideoConstants() {
  MemoryModel m = paperConstants();
  m.vaes = {{"vid", 3000, 2000, 1, 1500, 800, 2}};
  m.vaes[0].tilePx = 256;
  return m;
}

// Its samples, 33 frames at 832×480, under low_vram.
TrainingSetup tiledVideoSampling(const Architecture& video) {
  TrainingSetup s = paperSetup(video);
  s.lowVram = true;
  s.sampleWidth = 832;
  s.sampleHeight = 480;
  s.sampleFrames = 33;
  return s;
}

const GpuTarget kLargeCard{"card", static_cast<std::uint64_t>(80.0 * 1024 * kMiB)};

using test::component;
using test::phase;

}  // namespace

TEST_CASE("an optimizer whose states take the parameters' dtype keeps half of them for 16-bit parameters") {
  const Architecture arch = paperModel();
  MemoryModel m = paperConstants();
  m.optimizers = {{"adamw", false, 8, false, false, true}, {"adamw8bit", false, 2}};
  TrainingSetup s = paperSetup(arch);
  s.optimizer = "adamw";
  const auto trainable = [&](std::string_view name) { return component(phase(estimate(s, m, kLargeCard), "train_step"), name); };
  // The LoRA in AI Toolkit's fp32: rank 16 × 1e5 = 1.6 M params, 8 B of state, 4 B weights and grads.
  CHECK(trainable("optimizer state") == Approx(1.6e6 * 8));
  CHECK(trainable("trainable weights") == Approx(1.6e6 * 4));
  // sd-scripts' --full_bf16 casts the network to bf16: 2 B weights and grads, AdamW's two states 2 B each.
  s.adapterBytes = 2;
  CHECK(trainable("trainable weights") == Approx(1.6e6 * 2));
  CHECK(trainable("gradients") == Approx(1.6e6 * 2));
  CHECK(trainable("optimizer state") == Approx(1.6e6 * 4));
  // An 8-bit optimizer's states are its own whatever the parameters'.
  s.optimizer = "adamw8bit";
  CHECK(trainable("optimizer state") == Approx(1.6e6 * 2));
  // A bf16 full fine-tune: the 1e9 params' AdamW states in bf16, 4 B.
  s.adapterBytes = 0;
  s.optimizer = "adamw";
  s.fullFinetune = true;
  s.quantize = false;
  CHECK(trainable("optimizer state") == Approx(1e9 * 4));
  CHECK(trainable("gradients") == Approx(1e9 * 2));
}

TEST_CASE("a preservation loss keeps a second graph's block inputs until the one backward") {
  const Architecture arch = paperModel();
  const MemoryModel m = paperConstants();
  TrainingSetup s = paperSetup(arch);
  s.preservationLoss = true;
  const Estimate e = estimate(s, m, paperCard());
  const PhaseEstimate& train = phase(e, "train_step");
  // Two graphs keep 9 checkpointed inputs each; the backward recomputes one block at a time:
  // 4196 × 1000 × (2 × 9 × 2 + 50).
  CHECK(component(train, "activations") == Approx(4196.0 * 1000 * 86));
  // AI Toolkit before cac3815b ran the preservation backward on its own: one graph (4196 × 1000 × 68). Its
  // low end (activations and slack −50%) lowers this one's by half the difference and its 10% slack.
  const RangeReason* older = test::rangeReason(train, "cac3815b");
  REQUIRE(older != nullptr);
  CHECK(older->belowBytes == Approx(4196.0 * 1000 * (86 - 68) * 1.1 * 0.5));
  CHECK(older->aboveBytes == 0);
}

TEST_CASE("a mask SDPA gets in full: built at each forward's start (Chroma) or expanded in each call (PRX), made a bias") {
  Architecture arch = paperModel();
  arch.denoiser.heads = 1;
  arch.denoiser.attentionMask = "built_per_forward";
  MemoryModel m = paperConstants();
  m.vaes = {{"sd", 1, 1, 1}};  // a decode too small to be a sample's peak
  TrainingSetup s = paperSetup(arch);
  const double square = 4196.0 * 4196;  // S² for batch 1 × 1 head
  // Checkpointed: the bool mask (1 B) and the bf16 bias of the block in backward (2 B). Building it (8 B per element
  // and the [S, S] float32: 12 S²) comes before the activations 4196 × 1000 × 68, which leave it under 3 S².
  CHECK(component(phase(estimate(s, m, kLargeCard), "train_step"), "attention mask") == Approx(square * 3));
  // A preservation loss's second graph holds its own bool mask until the one backward: 2 × 1 + 2 B.
  s.preservationLoss = true;
  CHECK(component(phase(estimate(s, m, kLargeCard), "train_step"), "attention mask") == Approx(square * 4));
  s.preservationLoss = false;
  // Without checkpointing each of the 10 blocks saves its bias for the backward: 1 + 10 × 2 B.
  s.gradientCheckpointing = false;
  CHECK(component(phase(estimate(s, m, kLargeCard), "train_step"), "attention mask") == Approx(square * 21));
  // Sampling with CFG batched (guidance 4): two masks; building them, 2 × 8 B + the [S, S]'s 4 B per element, less the
  // sampling activations 2 × 4196 × 1000 × 12 it comes before, outweighs holding them (2 × 3 B).
  const Estimate e = estimate(s, m, kLargeCard);
  CHECK(component(phase(e, "sample"), "sampling activations") == Approx(2 * 4196.0 * 1000 * 12));
  CHECK(component(phase(e, "sample"), "attention mask") == Approx(square * 20 - 2 * 4196.0 * 1000 * 12));
  // Expanded in each call instead (PRX): only the bias, over the 4096 image tokens as queries and the 100 text tokens
  // too as keys when text is no query: 4096 × 4196 × 2 B, every block's without checkpointing.
  arch.denoiser.attentionMask = "expanded_per_call";
  arch.denoiser.jointAttention = false;
  CHECK(component(phase(estimate(s, m, kLargeCard), "train_step"), "attention mask") == Approx(4096.0 * 4196 * 2 * 10));
  s.gradientCheckpointing = true;
  CHECK(component(phase(estimate(s, m, kLargeCard), "train_step"), "attention mask") == Approx(4096.0 * 4196 * 2));
  // An architecture without one has none.
  arch.denoiser.attentionMask = {};
  CHECK(component(phase(estimate(s, m, kLargeCard), "train_step"), "attention mask") == 0);
}

TEST_CASE("a pixel head (Chroma Radiance's NeRF) runs backward while every block keeps its input, and samples the whole image") {
  Architecture arch = paperModel();
  MemoryModel m = paperConstants();
  m.vaes = {{"sd", 1, 1, 1}};  // a decode too small to be a sample's peak
  TrainingSetup s = paperSetup(arch);
  const double perBlock = 4196.0 * 1000, pixels = 1024.0 * 1024;
  // Without a head the block in backward sets the peak: 9 checkpointed inputs × 2 B + 50 B.
  CHECK(component(phase(estimate(s, m, kLargeCard), "train_step"), "activations") == Approx(perBlock * 68));
  // 300 B per pixel at the head's backward, beside all 10 blocks' inputs: 10 × 2 B per token·channel + 1024² × 300,
  // above the blocks' 68.
  arch.denoiser.pixelHeadTrainingBytesPerPixel = 300;
  arch.denoiser.pixelHeadSamplingBytesPerPixel = 100;
  Estimate e = estimate(s, m, kLargeCard);
  CHECK(component(phase(e, "train_step"), "activations") == Approx(perBlock * 20 + pixels * 300));
  // Sampling, CFG batched (guidance 4): both passes through the head at once, 2 × 1024² × 100 B, above the blocks'
  // 2 × 4196 × 1000 × 12 B (LoRA path).
  CHECK(component(phase(e, "sample"), "sampling activations") == Approx(2 * pixels * 100));
  // A head smaller than the block's work changes nothing: 40 B per pixel sampling, 10 B training.
  arch.denoiser.pixelHeadTrainingBytesPerPixel = 10;
  arch.denoiser.pixelHeadSamplingBytesPerPixel = 40;
  e = estimate(s, m, kLargeCard);
  CHECK(component(phase(e, "train_step"), "activations") == Approx(perBlock * 68));
  CHECK(component(phase(e, "sample"), "sampling activations") == Approx(2 * perBlock * 12));
  // Batch 2 doubles the head's pixels: 2 × (10 × 2 per token·channel + 1024² × 300) against 2 × 9 × 2 + 50.
  arch.denoiser.pixelHeadTrainingBytesPerPixel = 300;
  s.datasets[0].batch = 2;
  CHECK(component(phase(estimate(s, m, kLargeCard), "train_step"), "activations") == Approx(2 * (perBlock * 20 + pixels * 300)));
  // Without a head, a block that saves more than its recompute peak (no checkpointing) still counts the blocks' path:
  // 9 × 40 B saved + 30 B in backward, not 10 × 40.
  arch.denoiser.pixelHeadTrainingBytesPerPixel = 0;
  s.datasets[0].batch = 1;
  s.gradientCheckpointing = false;
  m.recomputeBytesPerTokenChannel = 30;
  CHECK(component(phase(estimate(s, m, kLargeCard), "train_step"), "activations") == Approx(perBlock * (9 * 40 + 30)));
}

TEST_CASE("a VAE that tiles itself and decodes float32 pixels (MiniMax-H3's ViT): a tile's work beside three float32 clips") {
  Architecture video = tiledVideoModel();
  video.lowVramKinds.clear();  // the VAE tiles whatever low_vram says
  video.vae.family = "vit";
  MemoryModel m = tiledVideoConstants();
  m.vaes = {{"vit", 100, 50, 1}};
  m.vaes[0].tilePx = 256;
  m.vaes[0].alwaysTiles = true;
  m.vaes[0].rgbClipCopies = 3;
  m.vaes[0].outputBytes = 4;
  m.vaes[0].imageDecodedFrames = 28;
  TrainingSetup s = tiledVideoSampling(video);
  s.lowVram = false;
  // One 256² tile ×1.25 × 100 B/px/elem × 2 B, beside 3 clips of 33 frames of 832×480 RGB in float32 (4 B).
  const double tile = 256.0 * 256 * 1.25 * 100 * 2;
  CHECK(component(phase(estimate(s, m, kLargeCard), "sample"), "VAE decode") == Approx(tile + 3 * 3.0 * 33 * 832 * 480 * 4));
  // An image sample decodes 28 frames all the same.
  s.sampleFrames = 1;
  CHECK(component(phase(estimate(s, m, kLargeCard), "sample"), "VAE decode") == Approx(tile + 3 * 3.0 * 28 * 832 * 480 * 4));
  // A sample within one tile is not tiled: its whole area at 100 B/px/elem.
  s.sampleWidth = s.sampleHeight = 256;
  CHECK(component(phase(estimate(s, m, kLargeCard), "sample"), "VAE decode") == Approx(256.0 * 256 * 100 * 2 + 3 * 3.0 * 28 * 256 * 256 * 4));
}

TEST_CASE("an audio model's tokens come from the planned clip length, not a bucket's pixels") {
  Architecture audio = paperModel();
  audio.kind = "audio";
  audio.denoiser.jointAttention = false;
  audio.denoiser.tokensPerSecond = 12.5;
  audio.denoiser.planningSeconds = 180;
  const Estimate e = estimate(paperSetup(audio), paperConstants(), kLargeCard);
  // 180 s × 12.5 = 2250 tokens whatever the dataset's resolution (1024 would be 4096 image tokens): 2250 × 1000 × 68.
  CHECK(component(phase(e, "train_step"), "activations") == Approx(2250.0 * 1000 * 68));
}

TEST_CASE("narrowed LoRA targets keep the default figure and reach an adapter on no layer") {
  const Architecture arch = paperModel();
  MemoryModel m = paperConstants();
  m.frozenBlockShare = 0.5;
  TrainingSetup s = paperSetup(arch);
  s.gradientCheckpointing = false;
  const Estimate plain = estimate(s, m, paperCard());
  s.loraTargetsNarrowed = true;
  const Estimate e = estimate(s, m, paperCard());
  const PhaseEstimate& train = phase(e, "train_step");
  // The expected figure is the default targets': 4196 × 1000 × (9 × 40 + 50).
  CHECK(train.peakBytes == Approx(phase(plain, "train_step").peakBytes));
  CHECK(component(train, "activations") == Approx(4196.0 * 1000 * 410));
  // An adapter on no layer: no adapter state (6.4e6 + 6.4e6 + 3.2e6 B) and frozen blocks keeping half
  // (4196 × 1000 × 205, slack 10%); its low end, −50% of those activations and slack, is this range's.
  const double bareActivations = 4196.0 * 1000 * 205 * 1.1;
  const double bareLow = 512 * kMiB + 1e9 + bareActivations * 0.5;
  CHECK(train.lowBytes == Approx(bareLow));
  CHECK(train.highBytes == Approx(phase(plain, "train_step").highBytes));
  const RangeReason* narrowed = test::rangeReason(train, "network_kwargs");
  REQUIRE(narrowed != nullptr);
  CHECK(narrowed->aboveBytes == 0);
}

TEST_CASE("a control image adds its own tokens: the target's, or its raw size's up to the architecture's cap") {
  Architecture arch = paperModel();
  arch.denoiser.controlTokenFactor = 1;
  MemoryModel m = paperConstants();
  m.vaes[0].imageEncodeFloorK = 100;  // the control's encode in the step stays under the forward
  TrainingSetup s = paperSetup(arch);
  s.datasets = {{0, 1024, 1, 1, 1, true}};
  const GpuTarget card = paperCard();
  const auto train = [&] { return phase(estimate(s, m, card), "train_step"); };
  // At the target's size: 4096 image + 4096 control + 100 text tokens × 1000 ch × (9 × 2 + 50) B.
  CHECK(component(train(), "activations") == Approx(8292.0 * 1000 * 68));
  // The control is encoded in every step, latents cached or not: the VAE is on the GPU.
  CHECK(component(train(), "VAE weights") == Approx(2e8));
  // Encoded at its raw size up to 512² (FLUX.2's reference images, at their cap): 1024 control tokens.
  arch.denoiser.controlMaxPixels = 512.0 * 512;
  CHECK(component(train(), "activations") == Approx(5220.0 * 1000 * 68));
  // model_kwargs.match_target_res resizes it to the target's area again.
  s.controlsAtTargetSize = true;
  CHECK(component(train(), "activations") == Approx(8292.0 * 1000 * 68));
  // A larger encode figure makes the control's encode the step's peak: 1024² × 1000 × 2 B against 5.6e8 + 10%.
  m.vaes[0].imageEncodeFloorK = 1000;
  CHECK(component(train(), "VAE encode") == Approx(1024.0 * 1024 * 1000 * 2));
  CHECK(component(train(), "activations") == 0);
}

TEST_CASE("every component of a hand-computed configuration") {
  const Architecture arch = paperModel();
  const MemoryModel m = paperConstants();
  const TrainingSetup s = paperSetup(arch);
  const Estimate e = estimate(s, m, paperCard());

  // 1024 px / (8 × 2) = 64 → 4096 image tokens, + 100 text tokens in the joint sequence.
  CHECK(imageTokens(arch, 1024, 1024, 1) == 4096);
  const PhaseEstimate& train = phase(e, "train_step");
  CHECK(component(train, "CUDA context") == 512 * kMiB);
  CHECK(component(train, "transformer weights") == Approx(1e9));      // 1e9 params × 1 B (qfloat8)
  CHECK(component(train, "text encoder weights") == 0);               // cached, then freed
  CHECK(component(train, "VAE weights") == 0);                        // every dataset caches latents
  CHECK(component(train, "trainable weights") == Approx(6.4e6));      // 16 × 1e5 params × 4 B (fp32 LoRA)
  CHECK(component(train, "gradients") == Approx(6.4e6));              // × 4 B
  CHECK(component(train, "optimizer state") == Approx(3.2e6));        // × 2 B (adamw8bit)
  CHECK(component(train, "activations") == Approx(2.85328e8));         // 4196 × 1000 × (9 × 2 + 50)
  CHECK(component(train, "allocator slack") == Approx(2.85328e7));     // 10% of activations
  CHECK(train.peakBytes == Approx(512 * kMiB + 1e9 + 1.6e7 + 2.85328e8 + 2.85328e7));
  // The range: activations and allocator slack ±50% each side (the paper constants), nothing else uncertain.
  CHECK(train.highBytes - train.peakBytes == Approx(0.5 * (2.85328e8 + 2.85328e7)));
  CHECK(train.peakBytes - train.lowBytes == Approx(0.5 * (2.85328e8 + 2.85328e7)));
  CHECK(test::rangeReason(train, "activation coefficients not measured for this block ±50%") != nullptr);

  // The same block with a census family measured on a GPU: its activations ±20%, the allocator's slack (a prior)
  // still ±50%.
  Architecture measured = paperModel();
  measured.denoiser.activationFamily = "paper";
  MemoryModel withFamily = m;
  ActivationCoefficients family = m.activations("");
  family.family = "paper";
  family.measuredOnGpu = true;
  withFamily.activationFamilies = {family};
  TrainingSetup onGpu = paperSetup(measured);
  const Estimate measuredEstimate = estimate(onGpu, withFamily, paperCard());
  const PhaseEstimate& measuredTrain = phase(measuredEstimate, "train_step");
  CHECK(measuredTrain.peakBytes == Approx(train.peakBytes));
  CHECK(measuredTrain.highBytes - measuredTrain.peakBytes == Approx(0.2 * 2.85328e8 + 0.5 * 2.85328e7));
  CHECK(test::rangeReason(measuredTrain, "activation coefficients measured on a GPU ±20%") != nullptr);

  // Captions are encoded with only the text encoder on the GPU: 5e8 × 2 B.
  CHECK(phase(e, "te_cache").peakBytes == Approx(512 * kMiB + 1e9));
  // Latent caching: VAE weights 1e8 × 2 B + encode 1024² × 1000 × 2 B.
  CHECK(phase(e, "latent_cache").peakBytes == Approx(512 * kMiB + 2e8 + 1024.0 * 1024 * 1000 * 2));
  // Quantization block by block: 1e9 × 1 B + one 1e8-param block in bf16.
  CHECK(phase(e, "quantize").peakBytes == Approx(512 * kMiB + 1e9 + 2e8));

  // Sampling: the VAE decode (1024² × 2000 × 2 B) outweighs the CFG forward with the LoRA path
  // (2 × 4196 × 1000 × 12 B).
  const PhaseEstimate& baseline = phase(e, "baseline_sample");
  CHECK(component(baseline, "VAE decode") == Approx(1024.0 * 1024 * 2000 * 2));
  CHECK(component(baseline, "sampling activations") == 0);
  // The network exists before the baseline sample: its fp32 LoRA weights (6.4e6 B) are on the GPU.
  CHECK(baseline.peakBytes == Approx(512 * kMiB + 1e9 + 2e8 + 1024.0 * 1024 * 2000 * 2 + 6.4e6));
  // Periodic samples also hold the optimizer state, which exists after the first step (grads are freed).
  CHECK(phase(e, "sample").peakBytes == Approx(baseline.peakBytes + 3.2e6));

  CHECK(e.peak().phase == Phase::Sample);
  CHECK(e.verdict == Verdict::Fits);
}

TEST_CASE("settings move the estimate the way the physics says") {
  const Architecture arch = paperModel();
  const MemoryModel m = paperConstants();
  const GpuTarget card = paperCard();
  const TrainingSetup base = paperSetup(arch);
  const double act = component(phase(estimate(base, m, card), "train_step"), "activations");

  TrainingSetup noCheckpointing = base;
  noCheckpointing.gradientCheckpointing = false;  // 9 blocks keep 40 B per token·channel: 9 × 40 + 50 vs 9 × 2 + 50
  CHECK(component(phase(estimate(noCheckpointing, m, card), "train_step"), "activations") == Approx(act * 410 / 68));

  TrainingSetup batch4 = base;
  batch4.datasets[0].batch = 4;
  CHECK(component(phase(estimate(batch4, m, card), "train_step"), "activations") == Approx(act * 4));

  TrainingSetup unquantized = base;
  unquantized.quantize = false;
  CHECK(component(phase(estimate(unquantized, m, card), "train_step"), "transformer weights") == Approx(2e9));
  CHECK(phase(estimate(unquantized, m, card), "load").peakBytes == Approx(512 * kMiB + 2e9 + 1e9 + 2e8));

  TrainingSetup residentEncoder = base;
  residentEncoder.cacheTextEmbeddings = false;
  CHECK(component(phase(estimate(residentEncoder, m, card), "train_step"), "text encoder weights") == Approx(1e9));

  TrainingSetup ema = base;
  ema.ema = true;
  CHECK(component(phase(estimate(ema, m, card), "train_step"), "EMA copy") == Approx(6.4e6));

  TrainingSetup small = base;
  small.datasets[0].resolution = 512;  // 1024 image tokens + 100 text
  CHECK(component(phase(estimate(small, m, card), "train_step"), "activations") == Approx(1124.0 * 1000 * 68));
}

TEST_CASE("an architecture's activation family replaces the default coefficients") {
  Architecture arch = paperModel();
  MemoryModel m = paperConstants();
  ActivationCoefficients family = m.activations("");
  family.family = "paper";
  family.blockBytesPerTokenChannel = 80;
  family.recomputeBytesPerTokenChannel = 100;
  family.inferenceBytesPerTokenChannel = 30;
  family.loraInferenceBytesPerTokenChannel = 60;
  m.activationFamilies = {family};
  m.vaes = {{"sd", 10, 10, 1}};  // a light decode, so the sampling forward sets the sampling peak
  CHECK(m.activations("unknown").recomputeBytesPerTokenChannel == 50);  // unknown: the defaults
  arch.denoiser.activationFamily = "paper";
  TrainingSetup s = paperSetup(arch);
  s.datasets[0].resolution = 512;  // 1124 tokens
  s.sampleWidth = s.sampleHeight = 512;
  const GpuTarget card = paperCard();
  // Checkpointed: 9 inputs × 2 B (memory.yaml's, every family) + the family's 100 B block in backward.
  CHECK(component(phase(estimate(s, m, card), "train_step"), "activations") == Approx(1124.0 * 1000 * (9 * 2 + 100)));
  s.gradientCheckpointing = false;  // 9 × 80 + 100
  CHECK(component(phase(estimate(s, m, card), "train_step"), "activations") == Approx(1124.0 * 1000 * 820));
  // Sampling with the LoRA network active: 2 (CFG) × 1124 × 1000 × 60 B; a full fine-tune has no LoRA path.
  CHECK(component(phase(estimate(s, m, card), "baseline_sample"), "sampling activations") == Approx(2 * 1124.0 * 1000 * 60));
  s.fullFinetune = true;
  CHECK(component(phase(estimate(s, m, card), "baseline_sample"), "sampling activations") == Approx(2 * 1124.0 * 1000 * 30));
}

TEST_CASE("a batch encoded in the step sets the peak only where it outweighs the forward and backward") {
  const Architecture arch = paperModel();
  MemoryModel m = paperConstants();
  m.vaes = {{"sd", 2000, 1000, 1}};
  m.vaes[0].imageEncodeFloorK = 400;  // the encoder's structure: the figure every image encode takes
  TrainingSetup s = paperSetup(arch);
  const GpuTarget card{"paper card", static_cast<std::uint64_t>(80.0 * 1024 * kMiB)};
  s.datasets = {{0, 1024, 1, 4, 0, false}};  // batch 4, latents not cached
  const PhaseEstimate small = phase(estimate(s, m, card), "train_step");
  // The batch's encode, 4 × 1024² × 400 × 2 B = 3.36e9, outweighs the step: 4 × 4196 × 1000 × 68 B + 10%.
  CHECK(component(small, "VAE encode") == Approx(4 * 1024.0 * 1024 * 400 * 2));
  CHECK(component(small, "activations") == 0);
  CHECK(component(small, "VAE weights") == Approx(2e8));  // it stays on the GPU to encode
  CHECK(small.peakBytes == Approx(512 * kMiB + 1e9 + 2e8 + 1.6e7 + 4 * 1024.0 * 1024 * 400 * 2));
  // A heavier step (no checkpointing: 10 × 40 B per token-channel) sets the peak; the encode is not added to it.
  s.gradientCheckpointing = false;
  const PhaseEstimate heavy = phase(estimate(s, m, card), "train_step");
  CHECK(component(heavy, "VAE encode") == 0);
  CHECK(component(heavy, "activations") > 4 * 1024.0 * 1024 * 400 * 2);
  // Latent caching encodes one image at a time at the same figure.
  s.datasets = {{0, 1024, 1, 4, 0, true}};
  CHECK(component(phase(estimate(s, m, card), "latent_cache"), "VAE encode") == Approx(1024.0 * 1024 * 400 * 2));
}

TEST_CASE("text encoders are quantized one at a time, one the loader quantizes first beside the bf16 transformer") {
  Architecture arch = paperModel();
  arch.denoiser.quantizeWholeOnGpu = true;
  // HiDream's order: its Llama is quantized on the GPU before the transformer is loaded, the rest after it.
  arch.textEncoders = {{.name = "first", .params = 1e9, .quantizedBeforeTransformer = true}, {.name = "second", .params = 8e8}};
  const MemoryModel m = paperConstants();
  TrainingSetup s = paperSetup(arch);
  s.quantizeTe = true;
  s.qtypeTe = "qfloat8";
  const GpuTarget card{"paper card", static_cast<std::uint64_t>(80.0 * 1024 * kMiB)};
  // Stages (bf16 2 B, qfloat8 1 B a parameter): the first encoder alone 1e9 × 2 = 2e9; the whole transformer in
  // bf16 beside it quantized, 1e9 × 2 + 1e9 = 3e9; the second in bf16 beside both quantized, 1e9 + 1e9 + 8e8 × 2
  // = 3.6e9 (before: every encoder in bf16 at once, 1e9 + 1.8e9 × 2 = 4.6e9).
  const PhaseEstimate q = phase(estimate(s, m, card), "quantize");
  CHECK(component(q, "transformer weights") == Approx(1e9));
  CHECK(component(q, "text encoder being quantized") == Approx(2.6e9));
  CHECK(q.peakBytes == Approx(512 * kMiB + 3.6e9));
  // A larger first encoder and a smaller second make the transformer's stage the peak: 1e9 × 2 + 1.5e9 = 3.5e9
  // against 1e9 + 1.5e9 + 2e8 × 2 = 2.9e9.
  arch.textEncoders = {{.name = "first", .params = 1.5e9, .quantizedBeforeTransformer = true}, {.name = "second", .params = 2e8}};
  const PhaseEstimate t = phase(estimate(s, m, card), "quantize");
  CHECK(component(t, "transformer being quantized") == Approx(2e9));
  CHECK(component(t, "text encoder quantized first") == Approx(1.5e9));
  // low_vram parks each module on the CPU once quantized: the first encoder alone is the peak, 1.5e9 × 2.
  arch.lowVramKinds = {"park_modules"};
  s.lowVram = true;
  const PhaseEstimate parked = phase(estimate(s, m, card), "quantize");
  CHECK(component(parked, "text encoder being quantized") == Approx(3e9));
  CHECK(parked.peakBytes == Approx(512 * kMiB + 3e9));
  // HiDream's loader then moves the whole transformer back to quantize what lies outside its blocks: the blocks
  // quantized (8e8 × 1 B) beside the 2e8 params outside them in bf16 (× 2 B) = 1.2e9, under the encoder's 3e9 ...
  arch.denoiser.extrasQuantizedOnGpuParams = 2e8;
  CHECK(component(phase(estimate(s, m, card), "quantize"), "text encoder being quantized") == Approx(3e9));
  // ... and the peak once the encoder is smaller (5e8 × 2 B = 1e9).
  arch.textEncoders = {{.name = "first", .params = 5e8, .quantizedBeforeTransformer = true}, {.name = "second", .params = 2e8}};
  const PhaseEstimate extras = phase(estimate(s, m, card), "quantize");
  CHECK(component(extras, "transformer being quantized") == Approx(8e8 * 1 + 2e8 * 2));
  CHECK(extras.peakBytes == Approx(512 * kMiB + 1.2e9));
}

TEST_CASE("low_vram's staged sampling holds what each of its stages keeps on the GPU") {
  Architecture arch = paperModel();
  const MemoryModel m = paperConstants();
  TrainingSetup s = paperSetup(arch);
  s.lowVram = true;
  s.cacheTextEmbeddings = false;  // the text encoder (5e8 × 2 B) is on the GPU to encode the prompts
  const GpuTarget card{"paper card", static_cast<std::uint64_t>(80.0 * 1024 * kMiB)};
  const double context = 512 * kMiB, transformer = 1e9, te = 1e9, vae = 2e8, lora = 6.4e6;
  const double decode = 1024.0 * 1024 * 2000 * 2;  // outweighs the denoising forward: 2 × 4196 × 1000 × 12 B
  const auto sample = [&](std::vector<KnowledgeText> kinds) {
    arch.lowVramKinds = std::move(kinds);
    return phase(estimate(s, m, card), "baseline_sample");
  };
  // Wan 2.1 T2V: the prompts are encoded with every module resident, the text encoder and VAE leave for the
  // denoising, and the decode runs beside the transformer.
  const PhaseEstimate wan21 = sample({"denoises_alone"});
  CHECK(component(wan21, "VAE decode") == Approx(decode));
  CHECK(component(wan21, "transformer weights") == Approx(transformer));
  CHECK(wan21.peakBytes == Approx(context + transformer + vae + decode + lora));
  // Wan 2.2: the transformer leaves before the decode, which then has the GPU with the VAE alone; the prompt
  // stage, every module with no activations, is now the largest.
  const PhaseEstimate wan22 = sample({"denoises_alone", "decodes_alone"});
  CHECK(component(wan22, "VAE decode") == Approx(decode));
  CHECK(wan22.peakBytes == Approx(context + vae + decode + lora));
  s.sampleWidth = s.sampleHeight = 512;  // a smaller decode: the prompt stage holds transformer, encoder and VAE
  const PhaseEstimate prompts = sample({"denoises_alone", "decodes_alone"});
  CHECK(component(prompts, "text encoder weights") == Approx(te));
  CHECK(prompts.peakBytes == Approx(context + transformer + te + vae + lora));
  // Wan 2.1 I2V parks transformer and VAE before encoding the prompts: the encoder alone.
  const PhaseEstimate i2v = sample({"encodes_prompts_alone"});
  CHECK(component(i2v, "text encoder weights") == 0);
  CHECK(component(i2v, "transformer weights") == Approx(transformer));
}

TEST_CASE("quantize_te converts an encoder's Linears and leaves CLIP encoders and token embeddings in their dtype") {
  Architecture arch = paperModel();
  arch.textEncoders = {{.name = "clip", .params = 2e8, .neverQuantized = true}, {.name = "t5", .params = 1e9}};
  const MemoryModel m = paperConstants();
  TrainingSetup s = paperSetup(arch);
  s.cacheTextEmbeddings = false;
  s.quantizeTe = true;
  s.qtypeTe = "qfloat8";
  const GpuTarget card{"paper card", static_cast<std::uint64_t>(80.0 * 1024 * kMiB)};
  // t5 1e9 × 1 B (qfloat8) + clip 2e8 × 2 B (bf16, never quantized).
  CHECK(component(phase(estimate(s, m, card), "train_step"), "text encoder weights") == Approx(1e9 + 4e8));
  // Every encoder a CLIP: nothing is quantized.
  arch.textEncoders = {{.name = "clip", .params = 2e8, .neverQuantized = true}};
  CHECK(component(phase(estimate(s, m, card), "train_step"), "text encoder weights") == Approx(4e8));
}

TEST_CASE("UNet activations are per latent pixel") {
  Architecture arch = paperModel();
  arch.denoiser.blocks = 0;
  arch.denoiser.hidden = 0;
  arch.denoiser.patch = 1;
  arch.denoiser.jointAttention = false;
  MemoryModel m = paperConstants();
  m.unetBytesPerLatentPixelCheckpointed = 20000;
  m.unetBytesPerLatentPixelFull = 90000;
  m.unetInferenceBytesPerLatentPixel = 3000;
  m.vaes = {{"sd", 10, 10, 1}};
  TrainingSetup s = paperSetup(arch);
  const GpuTarget card = paperCard();
  // 1024 px / 8 = 128² latent px
  CHECK(component(phase(estimate(s, m, card), "train_step"), "activations") == Approx(128.0 * 128 * 20000));
  s.gradientCheckpointing = false;
  CHECK(component(phase(estimate(s, m, card), "train_step"), "activations") == Approx(128.0 * 128 * 90000));
  CHECK(component(phase(estimate(s, m, card), "baseline_sample"), "sampling activations") == Approx(2 * 128.0 * 128 * 3000));
}

TEST_CASE("video tokens go through the VAE's temporal compression") {
  Architecture video = paperModel();
  video.kind = "video";
  video.vae.temporal = 4;
  video.denoiser.patch = 2;
  // 832×480, 81 frames: 52 × 30 × ((81 − 1) / 4 + 1) = 32,760 (memory-theory §4.3, Wan 2.1).
  CHECK(imageTokens(video, 832, 480, 81) == 32760);
  CHECK(imageTokens(video, 832, 480, 1) == 1560);
}

TEST_CASE("a backend that dequantizes in its forward keeps the bf16 weights for the backward") {
  const Architecture arch = paperModel();
  MemoryModel m = paperConstants();
  m.weightFormats.push_back({"uint4", {}, 0.5, 0, true});
  TrainingSetup s = paperSetup(arch);
  s.qtype = "uint4";
  const auto kept = [&] {
    return component(phase(estimate(s, m, {"card", static_cast<std::uint64_t>(80.0 * 1024 * kMiB)}), "train_step"),
                     "dequantized weights for backward");
  };
  CHECK(kept() == Approx(1e8 * 2));  // checkpointed: the recomputed block's 1e8 params in bf16
  s.gradientCheckpointing = false;
  CHECK(kept() == Approx(1e9 * 2));  // every layer's
  s.qtype = "qfloat8";               // keeps its quantized weight for the backward
  CHECK(kept() == 0);
}

TEST_CASE("a video VAE decodes an image with its image figure, a clip with its video figure and RGB clips beside") {
  Architecture video = paperModel();
  video.kind = "video";
  video.vae = {"vid", 1e8, 16, 8, 4};
  MemoryModel m = paperConstants();
  // Decode 3000 per pixel of a frame, one frame in flight; an image 1500; two RGB clips of the whole video.
  m.vaes = {{"vid", 3000, 2000, 1, 1500, 800, 2}};
  TrainingSetup s = paperSetup(video);
  s.sampleWidth = 832;
  s.sampleHeight = 480;
  const auto decode = [&](int frames) {
    s.sampleFrames = frames;
    return component(phase(estimate(s, m, {"card", static_cast<std::uint64_t>(80.0 * 1024 * kMiB)}), "sample"), "VAE decode");
  };
  CHECK(decode(1) == Approx(832.0 * 480 * 1500 * 2));
  // 81 frames: one frame's working memory at the video figure, + 2 clips × 3 channels × 81 × 832 × 480 × 2 B.
  CHECK(decode(81) == Approx(832.0 * 480 * 3000 * 2 + 2 * 3.0 * 81 * 832 * 480 * 2));
}

TEST_CASE("a pipeline that upcasts an fp16 VAE decodes samples in fp32, its weights too") {
  Architecture sdxlLike = paperModel();
  sdxlLike.vae.upcastsFp16SampleDecode = true;
  const MemoryModel m = paperConstants();
  TrainingSetup s = paperSetup(sdxlLike);
  const auto decode = [&] { return component(phase(estimate(s, m, kLargeCard), "sample"), "VAE decode"); };
  // bf16 (the setup's dtype): 1024² × 2000 × 2 B, no upcast.
  CHECK(decode() == Approx(1024.0 * 1024 * 2000 * 2));
  // fp16: 1024² × 2000 × 4 B, + 1e8 params × 2 B, the fp32 weights' excess over the fp16 ones.
  s.sampleDecodeUpcast = true;
  CHECK(decode() == Approx(1024.0 * 1024 * 2000 * 4 + 1e8 * 2));
  // The training step's encode of uncached latents is the trainer's own call: no upcast.
  s.datasets[0].cachesLatents = false;
  CHECK(component(phase(estimate(s, m, kLargeCard), "train_step"), "VAE encode") == Approx(1024.0 * 1024 * 1000 * 2));
  // model.vae_dtype fp32: weights 4 B/param, each pass in fp32.
  s.sampleDecodeUpcast = false;
  s.vaeDtype = "fp32";
  CHECK(component(phase(estimate(s, m, kLargeCard), "sample"), "VAE weights") == Approx(1e8 * 4));
  CHECK(decode() == Approx(1024.0 * 1024 * 2000 * 4));
}

// AI Toolkit samples SDXL through diffusers' StableDiffusionXLPipeline, which upcasts an fp16 VAE with force_upcast for
// its decode; the VAE's dtype is model.vae_dtype, else train.dtype.
TEST_CASE("SDXL's samples decode in fp32 when the VAE is fp16, in its dtype otherwise") {
  const auto decode = [](const std::string& dtype, const std::string& model) {
    const std::string config = "job: extension\nconfig:\n  name: vae\n  process:\n    - type: sd_trainer\n"
                               "      network: {type: lora, linear: 16, linear_alpha: 16}\n"
                               "      datasets: [{folder_path: /d, resolution: [1024], cache_latents_to_disk: true}]\n"
                               "      train: {batch_size: 1, steps: 10, dtype: " + dtype + ", gradient_checkpointing: true}\n"
                               "      model: {arch: sdxl, name_or_path: stabilityai/stable-diffusion-xl-base-1.0" + model + "}\n"
                               "      sample: {sample_every: 5, width: 1024, height: 1024, prompts: [a cat]}\n";
    const FileReport report = test::check(config);
    REQUIRE(report.estimate);
    return component(phase(*report.estimate, "sample"), "VAE decode");
  };
  const double bf16 = decode("bf16", ""), fp16 = decode("fp16", "");
  const double vaeParams = knowledge().architectures.find("sdxl")->vae.params;
  CHECK(bf16 > 0);
  CHECK(fp16 == Approx(2 * bf16 + vaeParams * 2));
  CHECK(decode("fp16", ", vae_dtype: bf16") == Approx(bf16));
  // A vae_dtype the schema refuses is reported (OL203) and leaves train.dtype's VAE.
  CHECK(decode("fp16", ", vae_dtype: banana") == Approx(fp16));
}

// TrainConfig's dtype defaults to fp32 and AI Toolkit trains without autocast: the model runs in fp32, every activation
// too. An adapted Linear's fp32 input is no longer an extra: its activations are the autocast figures doubled.
TEST_CASE("a job without train.dtype runs in fp32: its activations twice the bf16 ones, less the LoRA inputs' cast") {
  const auto activations = [](const std::string& arch, const std::string& model, const std::string& dtype) {
    const std::string config = "job: extension\nconfig:\n  name: fp32\n  process:\n    - type: sd_trainer\n"
                               "      network: {type: lora, linear: 16, linear_alpha: 16}\n"
                               "      datasets: [{folder_path: /d, resolution: [1024], cache_latents_to_disk: true}]\n"
                               "      train: {batch_size: 1, steps: 10, gradient_checkpointing: true" + dtype + "}\n"
                               "      model: {arch: " + arch + ", name_or_path: " + model + "}\n";
    const FileReport report = test::check(config);
    REQUIRE(report.estimate);
    return component(phase(*report.estimate, "train_step"), "activations");
  };
  // A UNet's per-pixel figure: exactly twice.
  const std::string sdxl = "stabilityai/stable-diffusion-xl-base-1.0";
  CHECK(activations("sdxl", sdxl, "") == Approx(2 * activations("sdxl", sdxl, ", dtype: bf16")));
  CHECK(activations("sdxl", sdxl, ", dtype: float32") == Approx(activations("sdxl", sdxl, "")));
  // A DiT with LoRA: its bf16 figure already keeps the adapted Linears' inputs in fp32, so less than twice.
  const std::string flux = "black-forest-labs/FLUX.1-dev";
  const double bf16 = activations("flux", flux, ", dtype: bf16"), fp32 = activations("flux", flux, "");
  CHECK(fp32 > 1.2 * bf16);
  CHECK(fp32 < 2 * bf16);
}

TEST_CASE("low_vram's tiled decode holds one tile of the VAE's own tile size") {
  const Architecture video = tiledVideoModel();
  MemoryModel m = tiledVideoConstants();
  TrainingSetup s = tiledVideoSampling(video);
  const Estimate e = estimate(s, m, kLargeCard);
  // 256² × 3000 × 2 B × 1.25, + 2 RGB clips of 33 × 832 × 480 × 3 × 2 B.
  const double clips = 2 * 3.0 * 33 * 832 * 480 * 2;
  CHECK(component(phase(e, "sample"), "VAE decode") == Approx(256.0 * 256 * 3000 * 2 * 1.25 + clips));
  // A Wan release before 886c2aec decoded untiled: the range reaches 832 × 480 × 3000 × 2 B + the clips.
  const double untiled = 832.0 * 480 * 3000 * 2 + clips;
  const PhaseEstimate& sample = phase(e, "sample");
  CHECK(sample.highBytes == Approx(sample.peakBytes - component(sample, "VAE decode") + untiled));
  // model_kwargs.vae_tiling tiles a Wan decode without low_vram; without either, it is untiled.
  s.lowVram = false;
  s.vaeTilingAsked = true;
  CHECK(component(phase(estimate(s, m, kLargeCard), "sample"), "VAE decode") ==
        Approx(256.0 * 256 * 3000 * 2 * 1.25 + clips));
  s.vaeTilingAsked = false;
  CHECK(component(phase(estimate(s, m, kLargeCard), "sample"), "VAE decode") ==
        Approx(untiled));
  // diffusers' tiled_decode keeps every decoded tile, all frames, until it blends them into rows: tiles every 192 px,
  // 256 + 256 + 256 + 256 + 64 = 1088 px across, 256 + 256 + 96 = 608 down. While the last tile decodes, the others
  // lie beside its working memory; afterwards the tiles, their blended rows and the pipeline's 2 clips, here less.
  m.vaes[0].tileStridePx = 192;
  s.vaeTilingAsked = true;
  const double clip = 3.0 * 33 * 832 * 480 * 2, overlap = 1088.0 * 608 / (832.0 * 480);
  const double during = 256.0 * 256 * 3000 * 2 * 1.25 + overlap * clip, after = (overlap + 1) * clip + 2 * clip;
  REQUIRE(during > after);
  CHECK(component(phase(estimate(s, m, kLargeCard), "sample"), "VAE decode") ==
        Approx(during));
  // A small tile's working memory: the moment after the tiles are decoded sets it.
  m.vaes[0].decodeK = 100;
  CHECK(component(phase(estimate(s, m, kLargeCard), "sample"), "VAE decode") ==
        Approx(after));
}

TEST_CASE("torch 2.9.1's half-precision 3D convolutions without cuDNN: the range reaches vol2col's column buffer") {
  const Architecture video = tiledVideoModel();
  MemoryModel m = tiledVideoConstants();
  m.vaes[0].vol2colChannels = 96;
  TrainingSetup s = tiledVideoSampling(video);
  const Estimate e = estimate(s, m, kLargeCard);
  const PhaseEstimate& sample = phase(e, "sample");
  // The assumed release tiles the decode through cuDNN; an install of torch 2.9.1's months decodes untiled (before
  // 886c2aec) and through slow_conv3d: a 4-frame chunk's columns, 96 · 27 · 4 per pixel, one sample, beside
  // 96 · (4 · 4 + 2) of maps and the clip decoded so far, in bf16 (832 × 480 × 96 · 27 · 4 · 2 B is
  // ostris/ai-toolkit#819's "~7.7 GiB").
  const double clip = 3.0 * 33 * 832 * 480 * 2;
  const double vol2col = (96.0 * 27 * 4 + 96.0 * 18) * 832 * 480 * 2 + clip;
  CHECK(sample.highBytes == Approx(sample.peakBytes - component(sample, "VAE decode") + vol2col));
  // Another trainer's job on this arithmetic keeps the torch widening but not AI Toolkit's untiled release: its
  // tiled decode's tiles go through slow_conv3d, 256² each (no ×1.25: the columns are exact), beside the clip so far.
  TrainingSetup other = s;
  other.aiToolkitHistory = false;
  const Estimate otherEstimate = estimate(other, m, kLargeCard);
  const PhaseEstimate& otherSample = phase(otherEstimate, "sample");
  const double cudnnTiles = component(otherSample, "VAE decode");
  const double slowTiles = (96.0 * 27 * 4 + 96.0 * 18) * 256 * 256 * 2 + clip;
  REQUIRE(slowTiles > cudnnTiles);
  CHECK(otherSample.highBytes == Approx(otherSample.peakBytes - cudnnTiles + slowTiles));
  // An fp32 VAE keeps cuDNN: the range is what it is without a 3D-convolution coder.
  s.activationBytes = 4;
  MemoryModel plain = m;
  plain.vaes[0].vol2colChannels = 0;
  CHECK(estimate(s, m, kLargeCard).highBytes == Approx(estimate(s, plain, kLargeCard).highBytes));
}

TEST_CASE("slow_conv3d's column buffer is one sample's, its maps every sample's: a batch encoded in the step") {
  const Architecture video = tiledVideoModel();
  MemoryModel m = tiledVideoConstants();
  m.vaes[0].vol2colChannels = 96;
  TrainingSetup s = paperSetup(video);
  s.aiToolkitHistory = false;  // the torch widening alone
  for (auto& d : s.datasets) {
    d.cachesLatents = false;
    d.batch = 3;
    d.frames = 1;
    d.resolution = 512;
  }
  const Estimate e = estimate(s, m, kLargeCard);
  const PhaseEstimate& step = phase(e, "train_step");
  // Images (one frame): columns 96 · 27 once, maps 96 · (4 + 2) for each of the 3 samples, against 3 × 800 through
  // cuDNN; both far above the small model's forward, so the encode sets the step either way.
  const double slow = (96.0 * 27 + 3 * 96.0 * 6) * 512 * 512 * 2, cudnn = 3 * 800.0 * 512 * 512 * 2;
  REQUIRE(slow > cudnn);
  CHECK(component(step, "VAE encode") == Approx(cudnn));
  const RangeReason* torch = test::rangeReason(step, "torch 2.9");
  REQUIRE(torch != nullptr);
  CHECK(torch->aboveBytes == Approx(slow - cudnn));

  // A card before Ampere runs bf16 convolutions (the setup's dtype) without cuDNN whatever the torch: the columns are
  // the expected figure.
  const GpuTarget turing{"Turing card", kLargeCard.vramBytes, 7.5};
  const Estimate turingEstimate = estimate(s, m, turing);
  const PhaseEstimate& onTuring = phase(turingEstimate, "train_step");
  CHECK(component(onTuring, "VAE encode") == Approx(slow));
  const auto encode = std::find_if(onTuring.components.begin(), onTuring.components.end(), [](const Component& c) { return c.name == "VAE encode"; });
  REQUIRE(encode != onTuring.components.end());
  CHECK(encode->how.find("compute capability 7.5") != std::string::npos);
  // No torch cures it there: the range names no torch 2.9 reason.
  CHECK(test::rangeReason(onTuring, "torch 2.9") == nullptr);
  // fp16 keeps cuDNN on it; Ampere (8.0) runs bf16 through cuDNN; an unknown card (a size given) is taken to.
  TrainingSetup half = s;
  half.trainDtype = "fp16";
  CHECK(component(phase(estimate(half, m, turing), "train_step"), "VAE encode") == Approx(cudnn));
  CHECK(component(phase(estimate(s, m, GpuTarget{"Ampere card", kLargeCard.vramBytes, 8.0}), "train_step"), "VAE encode") == Approx(cudnn));
  CHECK(component(phase(estimate(s, m, kLargeCard), "train_step"), "VAE encode") == Approx(cudnn));
}

TEST_CASE("quantize_model's loaders hold one block at a time and nothing of the transformer beside the text encoder") {
  Architecture arch = paperModel();
  const MemoryModel m = paperConstants();
  TrainingSetup s = paperSetup(arch);  // qfloat8 (1 B/param), 1e9 params, largest block 1e8, text encoder 5e8
  const auto quantize = [&] { return phase(estimate(s, m, kLargeCard), "quantize"); };
  // A loader that keeps the transformer on the GPU: the quantized model grows beside the block being quantized.
  CHECK(component(quantize(), "transformer being quantized") == Approx(1e9 * 1 + 1e8 * 2));
  arch.denoiser.transformerToGpuLast = true;
  CHECK(component(quantize(), "transformer being quantized") == Approx(1e8 * 2));
  // The text encoder is moved to the GPU in bf16 and quantized there, the transformer still on the CPU.
  s.quantizeTe = true;
  const PhaseEstimate last = quantize();
  CHECK(component(last, "text encoder being quantized") == Approx(5e8 * 2));
  CHECK(component(last, "transformer weights") == 0);
  arch.denoiser.transformerToGpuLast = false;
  CHECK(component(quantize(), "transformer weights") == Approx(1e9 * 1));
}

TEST_CASE("the verdict reads the range: oom over the expected peak, borderline over the high end, else fits") {
  const Architecture arch = paperModel();
  MemoryModel m = paperConstants();
  // The paper setup peaks in its sampling phase, whose VAE decode carries the range.
  m.uncertaintyVae = m.uncertaintyVaeAbove = 0.2;
  const TrainingSetup s = paperSetup(arch);
  const Estimate probe = estimate(s, m, {"x", 1});
  const double peak = probe.peak().peakBytes;
  const double margin = probe.highBytes - peak;
  CHECK(estimate(s, m, {"x", static_cast<std::uint64_t>(peak * 0.99)}).verdict == Verdict::Oom);
  REQUIRE(margin > 0);  // else the borderline band below would go untested
  CHECK(estimate(s, m, {"x", static_cast<std::uint64_t>(peak + margin * 0.5)}).verdict == Verdict::Borderline);
  CHECK(estimate(s, m, {"x", static_cast<std::uint64_t>(peak + margin + 1e9)}).verdict == Verdict::Fits);
}

TEST_CASE("the accuracy-recovery adapter: its bf16 weights, and gradients that stay from the first step on") {
  const Architecture arch = paperModel();
  MemoryModel m = paperConstants();
  m.araFractionOfBase = 0.01;
  TrainingSetup s = paperSetup(arch);
  s.accuracyRecoveryAdapter = true;
  s.baselineSample = true;
  s.periodicSample = true;
  const Estimate e = estimate(s, m, paperCard());
  // 1e9 params × 1% × 2 B (bf16) = 2e7 B: in the transformer's weights, and again as their gradients, which AI
  // Toolkit never frees (no optimizer holds them, nothing freezes them: toolkit/util/quantize.py).
  const PhaseEstimate& train = phase(e, "train_step");
  CHECK(component(train, "transformer weights") == Approx(1e9 + 2e7));
  CHECK(component(train, "accuracy-recovery adapter gradients") == Approx(2e7));
  CHECK(component(phase(e, "sample"), "accuracy-recovery adapter gradients") == Approx(2e7));
  CHECK(component(phase(e, "baseline_sample"), "accuracy-recovery adapter gradients") == 0);  // before any backward
  s.accuracyRecoveryAdapter = false;
  CHECK(component(phase(estimate(s, m, e.gpu), "train_step"), "accuracy-recovery adapter gradients") == 0);
}

TEST_CASE("figures print as printf's \"%.*f\" prints them, ties to even included") {
  std::vector<double> values = {0, -0.0, 0.5, 1.5, 2.5, -2.5, 0.125, 0.375, 2.675, 1.005, 0.045, 9.995, 99.95, 1e14 + 0.5,
                                123456.789, -0.04, 0.0005, 2.0 / 3, 1e15, 3.4e38, 1e-300};
  std::uint64_t x = 88172645463325252ull;  // xorshift: many figures of every size, the same in every run
  for (int i = 0; i < 20000; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    const double unit = static_cast<double>(x >> 11) / 9007199254740992.0;
    values.push_back((unit - 0.3) * std::pow(10.0, static_cast<double>(i % 14) - 4));
    values.push_back(std::round(unit * 20000) / 2000 + 0.0005 * (i % 2));  // near the ties of the third digit
  }
  for (const double v : values) {
    for (int digits = 0; digits <= 4; ++digits) {
      char want[400];
      std::snprintf(want, sizeof want, "%.*f", digits, v);
      INFO(v << " to " << digits);
      REQUIRE(fixedText(v, digits) == want);
    }
  }
}

TEST_CASE("an estimate made for its figures has the explained one's figures and writes none of its text", "[shared]") {
  OOMLINT_REQUIRE_SHARED();
  // Real jobs of every family (the corpus's examples and the calibration set's configs), on cards that put them on both
  // sides of the line, and on a card before Ampere (its 3D coders' alternative behaviour).
  std::vector<GpuTarget> cards;
  for (const double gib : {8.0, 16.0, 24.0, 48.0, 80.0}) cards.push_back({"card", static_cast<std::uint64_t>(gib * 1024 * kMiB)});
  cards.push_back({"RTX 2080 Ti", static_cast<std::uint64_t>(10.75 * 1024 * kMiB), 7.5});
  int jobs = 0;
  for (const auto* folder : {"corpus/ai-toolkit/examples", "calibration/configs"}) {
    for (const auto& entry : std::filesystem::directory_iterator(test::sharedDir() / folder)) {
      if (entry.path().extension() != ".yaml") continue;
      const auto doc = readDocument(test::readFile(entry.path()));
      const JobModel job = buildJobModel(doc->root(), knowledge());
      const auto estimated = AitkSystem::estimatedProcess(job);
      if (!estimated) continue;
      ++jobs;
      for (const GpuTarget& card : cards) {
        INFO(entry.path().filename().string() << " on " << card.describe());
        const Estimate explained = estimate(estimated->second, knowledge().memory, card);
        const Estimate figures = estimate(estimated->second, knowledge().memory, card, Detail::Figures);
        REQUIRE(figures.phases.size() == explained.phases.size());
        CHECK(figures.verdict == explained.verdict);
        CHECK(figures.peakPhase == explained.peakPhase);
        CHECK(figures.lowBytes == explained.lowBytes);
        CHECK(figures.highBytes == explained.highBytes);
        for (std::size_t i = 0; i < explained.phases.size(); ++i) {
          const PhaseEstimate &a = explained.phases[i], &b = figures.phases[i];
          CHECK(b.phase == a.phase);
          CHECK(b.peakBytes == a.peakBytes);
          CHECK(b.lowBytes == a.lowBytes);
          CHECK(b.highBytes == a.highBytes);
          REQUIRE(b.components.size() == a.components.size());
          for (std::size_t k = 0; k < a.components.size(); ++k) {
            CHECK(b.components[k].name == a.components[k].name);
            CHECK(b.components[k].bytes == a.components[k].bytes);
            CHECK(b.components[k].term == a.components[k].term);
            CHECK_FALSE(a.components[k].how.empty());
            CHECK(b.components[k].how.empty());
          }
          REQUIRE(b.range.size() == a.range.size());
          for (std::size_t k = 0; k < a.range.size(); ++k) {
            CHECK(b.range[k].belowBytes == a.range[k].belowBytes);
            CHECK(b.range[k].aboveBytes == a.range[k].aboveBytes);
            CHECK_FALSE(a.range[k].why.empty());
            CHECK(b.range[k].why.empty());
          }
        }
      }
    }
  }
  CHECK(jobs >= 40);
}
