// The GPU harness's non-GPU logic: the replay plan built from the core's estimate (components, block
// shapes, what checkpointing keeps, video frames), the capped-card expectations, the command line,
// the calibration list and the JSON report. The CUDA program itself needs a GPU and is not run here.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>

#include "calibration_cases.h"
#include "harness_options.h"
#include "base/knowledge/knowledge.h"
#include "measurement.h"
#include "plan_builder.h"
#include "report.h"
#include "test_support.h"

using namespace oomlint;
using namespace oomlint::harness;

namespace {

PlanInput analyzed(const std::string& path, const std::string& text, std::optional<double> vramGib = std::nullopt) {
  AnalyzeOptions options;
  options.vramGib = vramGib;
  return analyzeForReplay(Input{path, text}, options);
}

ReplayPlan planFor(const std::string& path, const std::string& text, std::optional<double> vramGib = std::nullopt) {
  const PlanInput input = analyzed(path, text, vramGib);
  std::string why;
  auto plan = buildReplayPlan(input, knowledge().memory, &why);
  INFO(why);
  REQUIRE(plan.has_value());
  return *plan;
}

std::string example(const std::string& name) { return test::readFile(test::sourceDir() / "docs/examples" / name); }

// The FLUX example with one setting's value swapped (the key must be written in it).
std::string fluxWith(const std::string& from, const std::string& to) {
  std::string text = example("flux-lora-24gb.yaml");
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

// The FLUX example at batch 8 with its buckets up to 768 px: about 31 GiB ± 6 at its peak.
std::string fluxBatch8At768() {
  std::string text = fluxWith("batch_size: 1", "batch_size: 8");
  const auto at = text.find("resolution: [512, 768, 1024]");
  REQUIRE(at != std::string::npos);
  return text.replace(at, 28, "resolution: [512, 768]");
}

const Gemm& gemm(const DenoiserWorkload& w, std::string_view name) {
  auto it = std::find_if(w.block.gemms.begin(), w.block.gemms.end(), [&](const Gemm& g) { return g.name == name; });
  REQUIRE(it != w.block.gemms.end());
  return *it;
}

std::uint64_t sum(const std::vector<SavedTensor>& tensors) {
  std::uint64_t total = 0;
  for (const auto& t : tensors) total += t.bytes;
  return total;
}

bool mentions(const std::vector<std::string>& notes, std::string_view text) {
  return std::any_of(notes.begin(), notes.end(), [&](const std::string& n) { return n.find(text) != std::string::npos; });
}

}  // namespace

TEST_CASE("the replay plan carries every estimate component of every phase at its bytes", "[harness]") {
  const PlanInput input = analyzed("flux-lora-24gb.yaml", example("flux-lora-24gb.yaml"));
  REQUIRE(input.report.estimate.has_value());
  const Estimate& e = *input.report.estimate;
  const ReplayPlan plan = planFor("flux-lora-24gb.yaml", example("flux-lora-24gb.yaml"));
  REQUIRE(plan.phases.size() == e.phases.size());
  for (std::size_t i = 0; i < e.phases.size(); ++i) {
    const PhaseEstimate& estimated = e.phases[i];
    const PhasePlan& planned = plan.phases[i];
    INFO(toString(estimated.phase));
    CHECK(planned.name == toString(estimated.phase));
    REQUIRE(planned.components.size() == estimated.components.size());
    // Rounding each component to whole bytes moves the sum by at most half a byte per component.
    CHECK(std::fabs(static_cast<double>(planned.totalBytes()) - estimated.peakBytes) <=
          0.5 * static_cast<double>(planned.components.size()));
    double resident = 0, context = 0;
    for (const auto& c : estimated.components) {
      if (c.term == Term::Weights || c.term == Term::Trainable) resident += c.bytes;
      if (c.term == Term::Fixed) context += c.bytes;
    }
    CHECK(std::fabs(static_cast<double>(planned.bytesOf(Replay::Resident)) - resident) <=
          0.5 * static_cast<double>(planned.components.size()));
    CHECK(static_cast<double>(planned.bytesOf(Replay::Context)) == Approx(context));
    CHECK(planned.estimatePeakBytes == estimated.peakBytes);
  }
  const PhasePlan* train = plan.phase("train_step");
  REQUIRE(train != nullptr);
  // Activations and the allocator's slack are what the training step's kernels create.
  CHECK(train->bytesOf(Replay::Workload) > 0);
  CHECK(train->denoiser.has_value());
  CHECK_FALSE(mentions(plan.notes, "formula changed"));
}

TEST_CASE("FLUX's training GEMMs have its width and the estimate's token count", "[harness]") {
  const ReplayPlan plan = planFor("flux-lora-24gb.yaml", example("flux-lora-24gb.yaml"));
  const PhasePlan* train = plan.phase("train_step");
  REQUIRE(train != nullptr);
  REQUIRE(train->denoiser.has_value());
  const DenoiserWorkload& w = *train->denoiser;
  // The largest bucket, 1024 px: (1024 / 8 / 2)² = 4096 image tokens, plus 512 T5 tokens in the joint sequence.
  CHECK(w.resolution == 1024);
  CHECK(w.imageTokens == 4096);
  CHECK(w.block.tokens == 4096 + 512);
  CHECK(w.block.batch == 1);
  CHECK(w.blocks == 57);
  CHECK(w.block.hidden == 3072);
  CHECK(w.block.heads == 24);
  CHECK(w.block.headDim == 128);
  CHECK(w.block.crossTokens == 0);
  const std::int64_t m = 4608;
  CHECK(gemm(w, "qkv").m == m);
  CHECK(gemm(w, "qkv").n == 3 * 3072);
  CHECK(gemm(w, "qkv").k == 3072);
  CHECK(gemm(w, "attention out").n == 3072);
  CHECK(gemm(w, "mlp up").n == 4 * 3072);
  CHECK(gemm(w, "mlp up").k == 3072);
  CHECK(gemm(w, "mlp down").n == 3072);
  CHECK(gemm(w, "mlp down").k == 4 * 3072);
  REQUIRE(w.block.attentions.size() == 1);
  const Attention& a = w.block.attentions.front();
  CHECK(a.queryTokens == m);
  CHECK(a.keyTokens == m);
  CHECK(a.heads == 24);
  CHECK(a.headDim == 128);
  // Quantized weights are not bf16 in the resident buffer: the GEMMs dequantize their own copies.
  CHECK_FALSE(w.weightsFromResident);
  CHECK(w.weightsNote.find("quantized") != std::string::npos);
}

TEST_CASE("with gradient checkpointing only the block inputs are kept, and one block is recomputed", "[harness]") {
  const ReplayPlan plan = planFor("flux-lora-24gb.yaml", example("flux-lora-24gb.yaml"));
  const DenoiserWorkload& w = *plan.phase("train_step")->denoiser;
  REQUIRE(w.checkpointing);
  const std::uint64_t input = 4608ull * 3072 * 2;  // bf16 block input
  REQUIRE(w.keptPerBlock.size() == 1);
  CHECK(w.keptPerBlock.front().name == "block input");
  CHECK(w.keptPerBlock.front().bytes == input);
  CHECK(w.recomputed.size() == w.block.saved.size());
  CHECK(w.keptBytes == 57 * input + sum(w.block.saved));
  // The reference block saves about the core's 34-50 B per token·channel (memory.yaml block_bytes_per_token_channel).
  CHECK(w.keptBytesPerTokenChannel > 25);
  CHECK(w.keptBytesPerTokenChannel < 50);

  const ReplayPlan full = planFor("no-ckpt.yaml", fluxWith("gradient_checkpointing: true", "gradient_checkpointing: false"));
  const DenoiserWorkload& f = *full.phase("train_step")->denoiser;
  CHECK_FALSE(f.checkpointing);
  CHECK(f.keptPerBlock.size() == f.block.saved.size());
  CHECK(f.recomputed.empty());
  CHECK(f.keptBytes == 57 * sum(f.block.saved));
  CHECK(f.keptBytes > 10 * w.keptBytes);
  CHECK_FALSE(mentions(full.notes, "formula changed"));
}

TEST_CASE("an unquantized bf16 model's GEMMs read their weights from the resident transformer buffer", "[harness]") {
  const ReplayPlan plan = planFor("bf16.yaml", fluxWith("quantize: true", "quantize: false"));
  const DenoiserWorkload& w = *plan.phase("train_step")->denoiser;
  CHECK(w.weightsFromResident);
  CHECK(w.weightsNote.empty());
}

TEST_CASE("FLUX sampling at 1024 px: decode outweighs the forward, so the phase replays the VAE", "[harness]") {
  const ReplayPlan plan = planFor("flux-lora-24gb.yaml", example("flux-lora-24gb.yaml"));
  const PhasePlan* sample = plan.phase("sample");
  REQUIRE(sample != nullptr);
  REQUIRE(sample->vae.has_value());
  CHECK_FALSE(sample->denoiser.has_value());
  const VaeWorkload& v = *sample->vae;
  CHECK(v.decode);
  CHECK(v.width == 1024);
  CHECK(v.height == 1024);
  CHECK(v.latentWidth == 128);
  CHECK(v.latentChannels == 16);
  CHECK(v.latentFrames == 1);
  CHECK(v.latentBytes == 16ull * 128 * 128 * 2);
  // The working buffer is the estimate's VAE decode figure.
  auto decode = std::find_if(sample->components.begin(), sample->components.end(),
                             [](const ComponentPlan& c) { return c.name == "VAE decode"; });
  REQUIRE(decode != sample->components.end());
  CHECK(decode->replay == Replay::Workload);
  CHECK(v.workBytes == decode->bytes);
}

TEST_CASE("the cap plan's verdict flips between a 24 GiB and a 48 GiB card for a batch-8 config", "[harness]") {
  // Clear of both cards: over 24 GiB, and under 48 GiB by more than its uncertainty.
  const std::string text = fluxBatch8At768();
  const ReplayPlan plan = planFor("batch8.yaml", text);
  const DenoiserWorkload& w = *plan.phase("train_step")->denoiser;
  CHECK(w.block.batch == 8);
  CHECK(gemm(w, "qkv").m == 8 * (48 * 48 + 512));

  const CapPlan small = capPlan(plan, 24);
  const CapPlan large = capPlan(plan, 48);
  CHECK(small.capBytes == 24ull << 30);
  auto expectation = [](const CapPlan& cap, std::string_view phase) {
    auto it = std::find_if(cap.phases.begin(), cap.phases.end(), [&](const PhaseExpectation& e) { return e.phase == phase; });
    REQUIRE(it != cap.phases.end());
    return it->expect;
  };
  CHECK(expectation(small, "train_step") == Expectation::Oom);
  CHECK(expectation(large, "train_step") == Expectation::Fits);
  CHECK(small.overall == Expectation::Oom);
  CHECK(large.overall == Expectation::Fits);
  CHECK(expectation(small, "load") == Expectation::Fits);  // the quantized load is small on either card
  // The cap plan's overall call is the core's own verdict for a card of that size.
  CHECK(analyzed("batch8.yaml", text, 24).report.estimate->verdict == Verdict::Oom);
  CHECK(analyzed("batch8.yaml", text, 48).report.estimate->verdict == Verdict::Fits);
}

TEST_CASE("a card within the estimate's uncertainty of the peak accepts either outcome", "[harness]") {
  const ReplayPlan plan = planFor("flux-lora-24gb.yaml", example("flux-lora-24gb.yaml"));
  const PhasePlan* peak = &plan.phases.front();
  for (const auto& p : plan.phases) {
    if (p.estimatePeakBytes > peak->estimatePeakBytes) peak = &p;
  }
  const double capGib = (peak->estimatePeakBytes + peak->uncertaintyBytes / 2) / (1024.0 * 1024.0 * 1024.0);
  CHECK(capPlan(plan, capGib).overall == Expectation::Either);
}

TEST_CASE("a video config's frames go through the VAE's temporal compression", "[harness]") {
  const ReplayPlan plan = planFor("wan21-video-lora.yaml", example("wan21-video-lora.yaml"));
  const PhasePlan* train = plan.phase("train_step");
  REQUIRE(train != nullptr);
  REQUIRE(train->denoiser.has_value());
  const DenoiserWorkload& w = *train->denoiser;
  // 17 frames through Wan's 4× temporal VAE: (17 − 1) / 4 + 1 = 5 latent frames of (512 / 8 / 2)² tokens.
  CHECK(w.frames == 17);
  CHECK(w.latentFrames == 5);
  CHECK(w.imageTokens == 5 * 32 * 32);
  CHECK(w.block.tokens == 5 * 32 * 32);  // cross-attention: the text is not in the sequence
  CHECK(w.block.crossTokens == 512);
  CHECK(w.block.hidden == 5120);
  CHECK(gemm(w, "mlp up").n == 13824);  // mlp_ratio 2.7 × 5120: Wan's FFN width
  CHECK(gemm(w, "cross kv").m == 512);
  REQUIRE(w.block.attentions.size() == 2);
  CHECK(w.block.attentions[1].keyTokens == 512);
  // The config misspells gradient_checkpointing, so AI Toolkit's default (on) applies.
  CHECK(w.checkpointing);
  CHECK_FALSE(mentions(plan.notes, "formula changed"));

  const PhasePlan* cache = plan.phase("latent_cache");
  REQUIRE(cache != nullptr);
  REQUIRE(cache->vae.has_value());
  CHECK_FALSE(cache->vae->decode);
  CHECK(cache->vae->frames == 17);
  CHECK(cache->vae->latentFrames == 5);

  // Wan 2.1's low_vram pipeline sends the text encoder and VAE away for the denoising, whose forward without grad
  // is the sampling phases' largest stage here: 40 frames → 10 latent frames of (832 / 16) × (480 / 16) tokens;
  // Wan's pipeline runs the CFG pass after the conditional one (architectures.yaml cfg_batched false), so one
  // pass at a time.
  int sampling = 0;
  for (const auto& p : plan.phases) {
    if (p.name != "baseline_sample" && p.name != "sample") continue;
    ++sampling;
    CHECK_FALSE(p.vae.has_value());
    REQUIRE(p.denoiser.has_value());
    CHECK_FALSE(p.denoiser->training);
    CHECK(p.denoiser->frames == 40);
    CHECK(p.denoiser->latentFrames == 10);
    CHECK(p.denoiser->block.tokens == 10 * 52 * 30);
    CHECK(p.denoiser->cfgPasses == 1);
    CHECK(p.denoiser->block.batch == 1);
    CHECK(p.denoiser->keptPerBlock.empty());
  }
  CHECK(sampling > 0);
}

TEST_CASE("with cached and uncached datasets, latent caching replays the cached one's encode", "[harness]") {
  // The uncached dataset's batch is encoded in the step too (8 × 1024² × 515 × 2 B), but SD 1.5's checkpointed step
  // keeps more (94,586 B per latent pixel against 65,920 for the encode), so the step replays its activations.
  const std::string config = R"(job: extension
config:
  name: encode_in_step
  process:
    - type: sd_trainer
      training_folder: output
      network: {type: lora, linear: 4, linear_alpha: 4}
      datasets:
        - folder_path: /data/a
          resolution: [512]
          cache_latents_to_disk: true
        - folder_path: /data/b
          resolution: [1024]
          batch_size: 8
      train: {batch_size: 1, steps: 10, gradient_checkpointing: true, optimizer: adamw8bit, lr: 0.0001, dtype: bf16, disable_sampling: true}
      model: {name_or_path: runwayml/stable-diffusion-v1-5, arch: sd1}
)";
  const ReplayPlan plan = planFor("encode.yaml", config);
  const PhasePlan* cache = plan.phase("latent_cache");
  REQUIRE(cache != nullptr);
  REQUIRE(cache->vae.has_value());
  CHECK_FALSE(cache->vae->decode);
  CHECK(cache->vae->width == 512);
  const PhasePlan* train = plan.phase("train_step");
  REQUIRE(train != nullptr);
  CHECK(std::any_of(train->components.begin(), train->components.end(), [](const auto& c) { return c.name == "activations"; }));
  CHECK_FALSE(train->vae.has_value());
}

TEST_CASE("a UNet has no block shapes: its activations are allocated as estimated", "[harness][shared]") {
  OOMLINT_REQUIRE_SHARED();
  const std::string text = test::readFile(test::sharedDir() / "calibration/configs/sdxl_sdscripts_lora_8gb.yaml");
  REQUIRE_FALSE(text.empty());
  const ReplayPlan plan = planFor("sdxl.yaml", text);
  const PhasePlan* train = plan.phase("train_step");
  REQUIRE(train != nullptr);
  CHECK_FALSE(train->denoiser.has_value());
  CHECK(train->bytesOf(Replay::Workload) == 0);
  CHECK(mentions(plan.notes, "UNet"));
}

TEST_CASE("attention tiles keep the score scratch within the budget", "[harness]") {
  const Attention flux{"self-attention", 1, 24, 4608, 4608, 128};
  const AttentionTiling t = tileAttention(flux, kAttentionScratchBudget);
  CHECK(t.headsPerPass == 24);
  CHECK(t.queryChunk >= 64);
  CHECK(t.queryChunk % 16 == 0);
  CHECK(t.scratchBytes <= kAttentionScratchBudget);
  CHECK(t.scratchBytes == 24ull * static_cast<std::uint64_t>(t.queryChunk) * 4608 * 6);

  // A long video sequence: fewer heads per pass so the tile still fits.
  const Attention video{"self-attention", 1, 40, 75600, 75600, 128};
  const AttentionTiling v = tileAttention(video, kAttentionScratchBudget);
  CHECK(v.headsPerPass < 40);
  CHECK(v.queryChunk == 64);
  CHECK(v.scratchBytes <= kAttentionScratchBudget);

  // A short cross-attention fits whole.
  const Attention cross{"cross-attention", 2, 40, 200, 512, 128};
  const AttentionTiling c = tileAttention(cross, kAttentionScratchBudget);
  CHECK(c.headsPerPass == 40);
  CHECK(c.queryChunk == 200);
}

TEST_CASE("the harness command line", "[harness]") {
  std::string error;
  auto o = parseHarnessOptions({"--vram", "24", "--cap-gib", "16", "--json", "out.json", "a.yaml", "b.yaml"}, &error);
  REQUIRE(o.has_value());
  CHECK(o->vramGib == 24);
  CHECK(o->capGib == 16);
  CHECK(o->jsonPath == "out.json");
  CHECK(o->configs == std::vector<std::string>{"a.yaml", "b.yaml"});
  CHECK_FALSE(o->calibration);

  o = parseHarnessOptions({"--calibration", "--cap-gib", "card"}, &error);
  REQUIRE(o.has_value());
  CHECK(o->calibration);
  CHECK(o->calibrationCases.empty());
  CHECK(o->capAtCard);

  o = parseHarnessOptions({"--calibration", "cases.yaml", "--forward-blocks", "2"}, &error);
  REQUIRE(o.has_value());
  CHECK(o->calibrationCases == "cases.yaml");
  CHECK(o->forwardBlocks == 2);
  CHECK(o->configs.empty());

  o = parseHarnessOptions({"--calibration=x.yaml", "c.yaml", "--plan-only"}, &error);
  REQUIRE(o.has_value());
  CHECK(o->calibrationCases == "x.yaml");
  CHECK(o->configs == std::vector<std::string>{"c.yaml"});
  CHECK(o->planOnly);

  CHECK_FALSE(parseHarnessOptions({}, &error).has_value());
  CHECK(error.find("nothing to replay") != std::string::npos);
  CHECK_FALSE(parseHarnessOptions({"--gpu", "RTX 4090", "--vram", "24", "a.yaml"}, &error).has_value());
  CHECK_FALSE(parseHarnessOptions({"--cap-gib", "-3", "a.yaml"}, &error).has_value());
  CHECK_FALSE(parseHarnessOptions({"--cap-gib", "12GB", "a.yaml"}, &error).has_value());
  CHECK_FALSE(parseHarnessOptions({"--frobnicate", "a.yaml"}, &error).has_value());
  CHECK(error == "unknown option --frobnicate");
}

TEST_CASE("calibration cases resolve their configs beside the cases file", "[harness]") {
  const std::string text = R"(- id: one
  config: configs/one.yaml
  gpu_vram_gib: 24
  expect: fits
- id: two
  config: configs/two.yaml
  expect: peak
  phase: train_step
- note: an item without id or config is not a case
)";
  std::string error;
  const auto cases = readCalibrationCases(text, "/data/calibration", &error);
  REQUIRE(cases.size() == 2);
  CHECK(cases[0].id == "one");
  CHECK(cases[0].config == "/data/calibration/configs/one.yaml");
  CHECK(cases[0].gpuGib == 24);
  CHECK(cases[1].gpuGib == 80);  // unknown card: the cases file's convention
  CHECK(cases[1].phase == "train_step");
  CHECK(readCalibrationCases("just: a map", "/", &error).empty());
  CHECK_FALSE(error.empty());
}

TEST_CASE("the shared calibration cases resolve their configs and can all be planned", "[harness][shared]") {
  OOMLINT_REQUIRE_SHARED();
  std::string error;
  const auto shared = test::sharedDir() / "calibration/cases.yaml";
  const std::string all = test::readFile(shared);
  REQUIRE_FALSE(all.empty());
  const auto real = readCalibrationCases(all, shared.parent_path().string(), &error);
  CHECK(real.size() >= 6);
  for (const auto& c : real) {
    INFO(c.id);
    CHECK(std::filesystem::exists(c.config));
    // Every case is something the harness can plan.
    CHECK(buildReplayPlan(analyzed(c.config, test::readFile(c.config), c.gpuGib), knowledge().memory).has_value());
  }
}

TEST_CASE("the verdict check: oom must fail, fits must run, borderline may do either", "[harness]") {
  CHECK(agrees(Expectation::Oom, false));
  CHECK_FALSE(agrees(Expectation::Oom, true));
  CHECK(agrees(Expectation::Fits, true));
  CHECK_FALSE(agrees(Expectation::Fits, false));
  CHECK(agrees(Expectation::Either, true));
  CHECK(agrees(Expectation::Either, false));

  CapPlan cap;
  cap.phases = {{"load", 1, 0, Expectation::Fits}, {"train_step", 2, 0, Expectation::Oom}, {"sample", 1, 0, Expectation::Fits}};
  PhaseMeasurement load{"load", true, false, "", {}, std::nullopt, 1};
  PhaseMeasurement train{"train_step", false, true, "workload: mlp up", {}, std::nullopt, 0};
  // A CUDA failure other than out-of-memory says nothing about the verdict.
  PhaseMeasurement sample{"sample", false, false, "kernel launch failed", {}, std::nullopt, 0};
  const auto outcomes = compareWithCap(cap, {load, train, sample});
  REQUIRE(outcomes.size() == 3);
  CHECK(outcomes[0].agrees);
  CHECK(outcomes[1].agrees);
  CHECK(outcomes[1].failure == "workload: mlp up");
  CHECK_FALSE(outcomes[2].agrees);
}

TEST_CASE("the JSON report of a plan-only run", "[harness]") {
  CaseResult result;
  result.id = "flux-lora-24gb.yaml";
  result.plan = planFor("flux-lora-24gb.yaml", example("flux-lora-24gb.yaml"));
  result.cap = capPlan(*result.plan, 24);
  CaseResult skipped;
  skipped.id = "unknown.yaml";
  skipped.skipped = "no estimate";
  const auto json = nlohmann::json::parse(resultsJson(nullptr, {result, skipped}));
  CHECK(json["device"].is_null());
  REQUIRE(json["cases"].size() == 2);
  const auto& plan = json["cases"][0]["plan"];
  CHECK(plan["architecture"].get<std::string>().starts_with("flux"));
  bool sawTrain = false;
  for (const auto& phase : plan["phases"]) {
    if (phase["name"] != "train_step") continue;
    sawTrain = true;
    CHECK(phase["denoiser"]["tokens"] == 4608);
    CHECK(phase["denoiser"]["gemms"][0]["n"] == 9216);
    CHECK(phase["denoiser"]["kept_per_block"].size() == 1);
  }
  CHECK(sawTrain);
  CHECK(json["cases"][0]["cap"]["cap_bytes"] == 24ull << 30);
  CHECK(json["cases"][1]["plan"].is_null());
  CHECK(json["cases"][1]["skipped"] == "no estimate");
}
