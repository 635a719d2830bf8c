// The rollback plan's order (the seed guide's), its "needed" marking, and `fix` writing it back.
#include <catch2/catch.hpp>

#include <algorithm>

#include "engine/edits.h"
#include "engine/planner.h"
#include "engine/rollback_order.h"
#include "base/document/reader.h"
#include "test_support.h"

using namespace oomlint;

namespace {

const char* kFluxJob = R"(job: extension
config:
  name: plan_test
  process:
    - type: sd_trainer
      network: {type: lora, linear: 16, linear_alpha: 16}
      datasets:
        - folder_path: /data
          cache_latents_to_disk: true
          resolution: [512, 768, 1024, 1280]
      train:
        batch_size: 4
        gradient_checkpointing: false   # the heavy one
        optimizer: adamw8bit
        dtype: bf16
        noise_scheduler: flowmatch
      model:
        name_or_path: black-forest-labs/FLUX.1-dev
        arch: flux
        quantize: false
      sample:
        sampler: flowmatch
        width: 1024
        height: 1024
)";

const char* kWanJob = R"(job: extension
config:
  name: plan_video
  process:
    - type: sd_trainer
      network: {type: lora, linear: 32, linear_alpha: 32}
      datasets:
        - folder_path: /data/clips
          cache_latents_to_disk: true
          resolution: [512]
          num_frames: 81
      train:
        batch_size: 2
        gradient_checkpointing: false
        optimizer: adamw8bit
        dtype: bf16
        cache_text_embeddings: true
      model:
        name_or_path: Wan-AI/Wan2.1-T2V-14B-Diffusers
        arch: wan21
        quantize: true
      sample:
        sampler: flowmatch
        width: 832
        height: 480
        num_frames: 41
)";

std::vector<std::string> planPaths(const FileReport& report) {
  std::vector<std::string> paths;
  for (const auto& step : report.plan) paths.emplace_back(step.fix.path.lastKey());
  return paths;
}

std::ptrdiff_t indexOf(const std::vector<std::string>& v, const std::string& key) {
  auto it = std::find(v.begin(), v.end(), key);
  return it == v.end() ? -1 : it - v.begin();
}

AnalyzeOptions card(double gib) {
  AnalyzeOptions o;
  o.vramGib = gib;
  return o;
}

}  // namespace

TEST_CASE("an image plan follows the guide: checkpointing, batch, bucket, sampling, then quantization") {
  const FileReport report = analyzeInput(Input{"flux.yaml", kFluxJob}, card(12));
  REQUIRE(report.estimate);
  CHECK(report.estimate->verdict == Verdict::Oom);
  const auto paths = planPaths(report);
  INFO(paths.size() << " steps");
  const auto gc = indexOf(paths, "gradient_checkpointing");
  const auto batch = indexOf(paths, "batch_size");
  const auto bucket = indexOf(paths, "resolution");
  const auto quantize = indexOf(paths, "quantize");
  REQUIRE(gc == 0);
  REQUIRE(batch == 1);
  REQUIRE(bucket == 2);
  REQUIRE(quantize > bucket);
  // Each step saves memory and the peak falls step by step.
  double previous = report.estimate->peak().peakBytes;
  for (const auto& step : report.plan) {
    CHECK(step.savesBytes > 0);
    CHECK(step.peakBytesAfter < previous);
    previous = step.peakBytesAfter;
  }
  CHECK(report.plan[2].fix.fromJson == "[512, 768, 1024, 1280]");
  CHECK(report.plan[2].fix.toJson == "[512, 768, 1024]");
}

TEST_CASE("a video plan cuts frames first") {
  const FileReport report = analyzeInput(Input{"wan.yaml", kWanJob}, card(24));
  REQUIRE(report.estimate);
  REQUIRE_FALSE(report.plan.empty());
  const auto paths = planPaths(report);
  CHECK(paths.front() == "num_frames");
  CHECK(report.plan.front().fix.fromJson == "81");
  // Fewer frames stay on the Wan VAE's 4n+1 grid.
  const long to = std::stol(report.plan.front().fix.toJson);
  CHECK((to - 1) % 4 == 0);
  CHECK(indexOf(paths, "gradient_checkpointing") > 0);
}

TEST_CASE("a borderline plan lowers the range's top with the guide's levers before offloading") {
  // The Wan 2.1 example on a 4090: the expected peak fits; the range's top is an older install's untiled sampling
  // decode (torch 2.9.1's vol2col), which the sampling settings lower and offloading the model would not need to.
  AnalyzeOptions options;
  options.gpu = "RTX 4090";
  const FileReport report =
      analyzeInput(Input{"wan21-video-lora.yaml", test::readFile(test::sourceDir() / "docs/examples/wan21-video-lora.yaml")}, options);
  REQUIRE(report.estimate);
  REQUIRE(report.estimate->verdict == Verdict::Borderline);
  REQUIRE_FALSE(report.plan.empty());
  const auto paths = planPaths(report);
  CHECK(paths.front() == "num_frames");  // the guide's first lever lowers the expected peak
  CHECK_FALSE(report.plan.front().topOnly);
  CHECK(indexOf(paths, "disable_sampling") > 0);
  CHECK(indexOf(paths, "layer_offloading") == -1);
  CHECK(indexOf(paths, "low_vram") == -1);
  REQUIRE(std::any_of(report.plan.begin(), report.plan.end(), [](const PlanStep& s) { return s.topOnly; }));
  double top = report.estimate->highBytes;
  for (const auto& step : report.plan) {
    // A step listed for the top alone leaves the peak (within rounding) and brings the top down from the step before.
    if (step.topOnly) {
      CHECK(std::abs(step.savesBytes) < kMinPlanSaving);
      CHECK(step.highBytesAfter < top - kMinPlanSaving);
    }
    top = step.highBytesAfter;
  }
  CHECK(report.plan.back().fitsAfter);
}

TEST_CASE("needed marks the smallest set that fits, not every earlier step") {
  // FLUX with quantization off on a 24 GB card: only quantizing fixes it, though earlier steps save a little.
  std::string text = kFluxJob;
  text.replace(text.find("batch_size: 4"), 13, "batch_size: 1");
  text.replace(text.find("gradient_checkpointing: false"), 29, "gradient_checkpointing: true");
  text.replace(text.find("[512, 768, 1024, 1280]"), 22, "[512, 768, 1024]");
  const FileReport report = analyzeInput(Input{"flux.yaml", text}, card(24));
  REQUIRE(report.estimate);
  REQUIRE(report.estimate->verdict == Verdict::Oom);
  std::vector<std::string> needed;
  for (const auto& step : report.plan) {
    if (step.needed) needed.emplace_back(step.fix.path.lastKey());
  }
  CHECK(needed == std::vector<std::string>{"quantize"});
}

TEST_CASE("fix writes the needed steps, byte for byte elsewhere, and the result fits") {
  const FixResult fixed = fixConfig(Input{"flux.yaml", kFluxJob}, card(24));
  REQUIRE_FALSE(fixed.applied.empty());
  CHECK(fixed.skipped.empty());
  CHECK(fixed.text.find("gradient_checkpointing: true   # the heavy one") != std::string::npos);
  const FileReport after = analyzeInput(Input{"flux.yaml", fixed.text}, card(24));
  REQUIRE(after.estimate);
  CHECK(after.estimate->verdict == Verdict::Fits);
  // Nothing else moved: the fixed text is the original with exactly the four needed values rewritten,
  // the comment and spacing after them kept.
  std::string expected = kFluxJob;
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"batch_size: 4\n", "batch_size: 1\n"},
                                 {"gradient_checkpointing: false   # the heavy one\n", "gradient_checkpointing: true   # the heavy one\n"},
                                 {"resolution: [512, 768, 1024, 1280]\n", "resolution: [512, 768, 1024]\n"},
                                 {"quantize: false\n", "quantize: true\n"}}) {
    const auto at = expected.find(from);
    REQUIRE(at != std::string::npos);
    REQUIRE(expected.find(from, at + 1) == std::string::npos);
    expected.replace(at, from.size(), to);
  }
  CHECK(fixed.applied.size() == 4);
  CHECK(fixed.text == expected);
}

TEST_CASE("config edits keep formatting: block, flow, JSON, CRLF, empty values, new keys") {
  auto edit = [](const std::string& text, std::vector<std::pair<std::string, std::string>> changes) {
    auto doc = readDocument(text);
    REQUIRE_FALSE(doc->fatal());
    std::vector<Edit> edits;
    for (const auto& [path, json] : changes) {
      auto e = editFor(*doc, KeyPath::parse(path).value(), json);
      REQUIRE(e);
      edits.push_back(*e);
    }
    return applyEdits(text, edits);
  };
  CHECK(edit("train:\n  batch_size: 8  # big\n", {{"train.batch_size", "1"}}) == "train:\n  batch_size: 1  # big\n");
  CHECK(edit("train: {batch_size: 8, lr: 1e-4}\n", {{"train.batch_size", "1"}}) == "train: {batch_size: 1, lr: 1e-4}\n");
  CHECK(edit("train: {lr: 1e-4}\n", {{"train.disable_sampling", "true"}}) == "train: {lr: 1e-4, disable_sampling: true}\n");
  CHECK(edit("train:\r\n  lr: 1e-4\r\nmodel:\r\n  arch: flux\r\n", {{"train.disable_sampling", "true"}}) ==
        "train:\r\n  lr: 1e-4\r\n  disable_sampling: true\r\nmodel:\r\n  arch: flux\r\n");
  CHECK(edit("train:\n  low_vram:\n  lr: 1\n", {{"train.low_vram", "true"}}) == "train:\n  low_vram: true\n  lr: 1\n");
  CHECK(edit("{\n  \"train\": {\n    \"lr\": 0.0001\n  }\n}\n", {{"train.batch_size", "1"}}) ==
        "{\n  \"train\": {\n    \"lr\": 0.0001,\n    \"batch_size\": 1\n  }\n}\n");
  CHECK(edit("d:\n  - resolution: [512, 1024]\n", {{"d[0].resolution", "[512]"}}) == "d:\n  - resolution: [512]\n");
  // A plain string stays plain where YAML reads the new one back as a string; else it is quoted.
  CHECK(edit("train:\n  optimizer: adamw\n", {{"train.optimizer", "\"adamw8bit\""}}) == "train:\n  optimizer: adamw8bit\n");
  CHECK(edit("train:\n  optimizer: adamw\n", {{"train.optimizer", "\"yes\""}}) == "train:\n  optimizer: \"yes\"\n");
  CHECK(edit("train:\n  optimizer: 'adamw'\n", {{"train.optimizer", "\"lion\""}}) == "train:\n  optimizer: \"lion\"\n");
  // Two edits at one place keep their order; a key with a dot in it is one key.
  CHECK(edit("t:\n  a: 1\n", {{"t.b", "2"}, {"t.c", "3"}}) == "t:\n  a: 1\n  b: 2\n  c: 3\n");
  CHECK(edit("t:\n  a.b: 1\n", {{"t[\"a.b\"]", "2"}}) == "t:\n  a.b: 2\n");
}

TEST_CASE("the batch step's saving counts short_and_long_captions' doubling, as the estimate does") {
  // Only the batch step is taken here (checkpointing on already), so the peak after it must be the
  // estimate of the same job written with batch_size 1: the doubled batch falls to 2, not to 1.
  std::string text = kFluxJob;
  text.replace(text.find("gradient_checkpointing: false   # the heavy one"), 47, "gradient_checkpointing: true");
  text.replace(text.find("batch_size: 4\n"), 14, "batch_size: 4\n        short_and_long_captions: true\n");
  const FileReport report = analyzeInput(Input{"flux.yaml", text}, card(12));
  REQUIRE(report.estimate);
  REQUIRE_FALSE(report.plan.empty());
  const PlanStep& step = report.plan.front();
  REQUIRE(step.fix.path.toString() == "config.process[0].train.batch_size");
  CHECK(step.fix.fromJson == "4");
  CHECK(step.fix.toJson == "1");

  std::string batchOne = text;
  batchOne.replace(batchOne.find("batch_size: 4\n"), 14, "batch_size: 1\n");
  const FileReport after = analyzeInput(Input{"flux.yaml", batchOne}, card(12));
  REQUIRE(after.estimate);
  CHECK(step.peakBytesAfter == Approx(after.estimate->peak().peakBytes));
  CHECK(step.savesBytes == Approx(report.estimate->peak().peakBytes - after.estimate->peak().peakBytes));
}

TEST_CASE("needed means one thing for every system: the smallest subset that fits, earliest on a tie") {
  auto plan = [](std::size_t n) { return std::vector<PlanStep>(n); };
  // Steps 1 and 3 together fit, as do 2 and 3: the earlier pair is needed, and no single step fits.
  std::vector<PlanStep> steps = plan(4);
  int asked = 0;
  markNeededSteps(steps, [&](const std::vector<std::size_t>& pick) {
    ++asked;
    return pick == std::vector<std::size_t>{0, 2} || pick == std::vector<std::size_t>{1, 2};
  });
  CHECK(asked == 4 + 2);  // four singles, then {0,1} and {0,2}: the search stops at the first fit
  CHECK(std::vector<bool>{steps[0].needed, steps[1].needed, steps[2].needed, steps[3].needed} ==
        std::vector<bool>{true, false, true, false});
  CHECK(steps[3].rank == 4);

  // Nothing fits even with every step: all are needed (the user needs them all, and more).
  steps = plan(3);
  markNeededSteps(steps, [](const std::vector<std::size_t>&) { return false; });
  CHECK(std::all_of(steps.begin(), steps.end(), [](const PlanStep& s) { return s.needed; }));

  // Too long to search: all are needed, and nothing is estimated.
  steps = plan(13);
  asked = 0;
  markNeededSteps(steps, [&](const std::vector<std::size_t>&) { return ++asked > 0; });
  CHECK(asked == 0);
  CHECK(std::all_of(steps.begin(), steps.end(), [](const PlanStep& s) { return s.needed; }));
  CHECK(steps.back().rank == 13);
}

TEST_CASE("the guide's rollback order is written once: images, video, and a failed phase's lever first") {
  using K = LeverKind;
  CHECK(rollbackOrder(false) == std::vector{K::Checkpointing, K::Batch, K::Bucket, K::Sampling, K::LowMemory});
  CHECK(rollbackOrder(true) == std::vector{K::Frames, K::Checkpointing, K::Batch, K::Bucket, K::Sampling, K::LowMemory});
  CHECK(rollbackOrder(false, Phase::Sample) == std::vector{K::Sampling, K::Checkpointing, K::Batch, K::Bucket, K::LowMemory});
  CHECK(rollbackOrder(true, Phase::Quantize) == std::vector{K::LowMemory, K::Frames, K::Checkpointing, K::Batch, K::Bucket, K::Sampling});
  CHECK(rollbackOrder(false, Phase::TrainStep) == rollbackOrder(false));
}
