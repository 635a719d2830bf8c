#include "systems/aitk/plan.h"

#include <algorithm>
#include <map>
#include <functional>
#include <optional>

#include "engine/planner.h"
#include "engine/rollback_order.h"
#include "report/findings.h"

namespace oomlint {

namespace {

using TrainingLever = Lever<TrainingSetup>;

std::string jsonInt(long v) { return std::to_string(v); }

std::string jsonIntList(const std::vector<int>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + std::to_string(values[i]);
  return out + "]";
}

std::vector<int> resolutionsOf(const TrainingSetup& s, std::size_t dataset) {
  std::vector<int> out;
  for (const auto& d : s.datasets) {
    if (d.index == dataset) out.push_back(d.resolution);
  }
  return out;
}

// The video frame count one step down the model's grid (about two thirds), at least the grid's start.
int fewerFrames(const Architecture& arch, int frames) {
  if (frames <= 1) return frames;
  const int target = std::max(1, frames * 2 / 3);
  if (!arch.frameGrid) return target;
  const long snapped = arch.frameGrid->nearestBelow(target);
  return static_cast<int>(std::max<long>(snapped, std::min<long>(arch.frameGrid->offset, frames - 1)));
}

// Levers in the guide's order for images, or for video (frames first).
std::vector<std::function<std::optional<TrainingLever>(const TrainingSetup&)>> leversFor(const TrainerProcess& p,
                                                                                  const Advice& advice,
                                                                                  std::optional<Phase> failedPhase) {
  using Maker = std::function<std::optional<TrainingLever>(const TrainingSetup&)>;
  std::vector<Maker> frames, batch, bucket, sampling, lowMemory;

  frames.push_back([&p](const TrainingSetup& s) -> std::optional<TrainingLever> {
    auto longest = std::max_element(s.datasets.begin(), s.datasets.end(),
                                    [](const DatasetShape& a, const DatasetShape& b) { return a.frames < b.frames; });
    if (!s.isVideo() || longest == s.datasets.end() || longest->frames <= 1) return std::nullopt;
    const std::size_t index = longest->index;
    const int from = longest->frames;
    const int to = fewerFrames(*s.arch, from);
    if (to >= from) return std::nullopt;
    return TrainingLever{p.datasets[index].pathOf("num_frames"), jsonInt(from), jsonInt(to),
                 "fewer frames: activations grow with every latent frame",
                 [index, to](TrainingSetup& t) {
                   for (auto& d : t.datasets) {
                     if (d.index == index) d.frames = to;
                   }
                 }};
  });
  batch.push_back([&p](const TrainingSetup& s) -> std::optional<TrainingLever> {
    if (s.trainBatch <= 1) return std::nullopt;
    return TrainingLever{p.train.pathOf("batch_size"), jsonInt(s.trainBatch), "1",
                 "batch size 1: activations scale with the batch; use gradient_accumulation to keep the effective batch",
                 [](TrainingSetup& t) { t.setTrainBatch(1); }};
  });
  bucket.push_back([&p, &advice](const TrainingSetup& s) -> std::optional<TrainingLever> {
    auto largest = std::max_element(s.datasets.begin(), s.datasets.end(),
                                    [](const DatasetShape& a, const DatasetShape& b) { return a.resolution < b.resolution; });
    if (largest == s.datasets.end()) return std::nullopt;
    const std::size_t index = largest->index;
    std::vector<int> current = resolutionsOf(s, index);
    std::vector<int> next = current;
    if (current.size() > 1) {
      next.erase(std::max_element(next.begin(), next.end()));
    } else {
      const int res = current.front();
      const int lower = advice.stepBelow(res);  // rules/advice.yaml resolution_steps
      if (lower == 0) return std::nullopt;
      next = {lower};
    }
    const Node* written = p.datasets[index].written("resolution");
    const bool wasList = written && written->isSequence();
    return TrainingLever{p.datasets[index].pathOf("resolution"), wasList ? jsonIntList(current) : jsonInt(current.front()),
                 next.size() > 1 || wasList ? jsonIntList(next) : jsonInt(next.front()),
                 "drop the largest resolution bucket: the peak comes from the biggest images",
                 [index, next](TrainingSetup& t) {
                   std::vector<DatasetShape> kept;
                   DatasetShape model{};
                   for (const auto& d : t.datasets) {
                     if (d.index != index) kept.push_back(d);
                     else model = d;
                   }
                   for (int r : next) {
                     model.resolution = r;
                     kept.push_back(model);
                   }
                   t.datasets = kept;
                 }};
  });
  sampling.push_back([&p](const TrainingSetup& s) -> std::optional<TrainingLever> {
    if (!s.isVideo() || s.sampleFrames <= 1 || !(s.baselineSample || s.periodicSample)) return std::nullopt;
    const int to = fewerFrames(*s.arch, s.sampleFrames);
    if (to >= s.sampleFrames) return std::nullopt;
    return TrainingLever{p.sample.pathOf("num_frames"), jsonInt(s.sampleFrames), jsonInt(to), "shorter preview videos",
                 [to](TrainingSetup& t) { t.sampleFrames = to; }};
  });
  sampling.push_back([&p](const TrainingSetup& s) -> std::optional<TrainingLever> {
    if (!s.baselineSample && !s.periodicSample) return std::nullopt;
    return TrainingLever{p.train.pathOf("disable_sampling"), "false", "true",
                 "no preview samples: sampling puts the text encoder, the VAE decode and a full-size forward on the GPU "
                 "(re-enable it at a smaller size once training is stable)",
                 [](TrainingSetup& t) { t.baselineSample = t.periodicSample = false; }};
  });
  lowMemory.push_back([&p](const TrainingSetup& s) -> std::optional<TrainingLever> {
    if (s.lowVram || !s.arch->lowVram) return std::nullopt;
    return TrainingLever{p.model.pathOf("low_vram"), "false", "true", "the model's low-VRAM path (" + s.arch->label + ")",
                 [](TrainingSetup& t) { t.lowVram = true; }};
  });
  lowMemory.push_back([&p](const TrainingSetup& s) -> std::optional<TrainingLever> {
    if (s.quantize) return std::nullopt;
    // quantize_te follows quantize when it is not written, so this one key quantizes both.
    const bool encoderFollows = !p.model.has("quantize_te");
    return TrainingLever{p.model.pathOf("quantize"), "false", "true",
                 encoderFollows ? "quantize the transformer and, since quantize_te follows it, the text encoder (qfloat8: "
                                  "half the bf16 bytes)"
                                : "quantize the transformer (qfloat8: half the bf16 bytes)",
                 [encoderFollows](TrainingSetup& t) { quantizeModel(t, encoderFollows); }};
  });
  lowMemory.push_back([&p](const TrainingSetup& s) -> std::optional<TrainingLever> {
    if (s.quantizeTe || s.cacheTextEmbeddings || s.arch->textEncoderParams() <= 0) return std::nullopt;
    return TrainingLever{p.model.pathOf("quantize_te"), "false", "true", "quantize the text encoder",
                 [](TrainingSetup& t) {
                   t.quantizeTe = true;
                   if (t.qtypeTe.empty()) t.qtypeTe = "qfloat8";
                 }};
  });
  lowMemory.push_back([&p](const TrainingSetup& s) -> std::optional<TrainingLever> {
    if (s.cacheTextEmbeddings || s.trainTextEncoder || s.arch->textEncoderParams() <= 0) return std::nullopt;
    return TrainingLever{p.train.pathOf("cache_text_embeddings"), "false", "true",
                 "cache the text embeddings: the text encoder is freed after caching (captions are kept)",
                 [](TrainingSetup& t) {
                   t.cacheTextEmbeddings = true;
                   t.unloadTextEncoder = false;
                 }};
  });
  lowMemory.push_back([&p](const TrainingSetup& s) -> std::optional<TrainingLever> {
    if (s.layerOffloading || !s.arch->layerOffloading) return std::nullopt;
    return TrainingLever{p.model.pathOf("layer_offloading"), "false", "true",
                 "stream the transformer's Linear weights from CPU RAM (slower; needs host RAM)",
                 [](TrainingSetup& t) { t.layerOffloading = true; }};
  });

  std::vector<Maker> checkpointing;
  checkpointing.push_back([&p](const TrainingSetup& s) -> std::optional<TrainingLever> {
    if (s.gradientCheckpointing) return std::nullopt;
    return TrainingLever{p.train.pathOf("gradient_checkpointing"), "false", "true",
                 "gradient checkpointing keeps one input per block instead of every activation",
                 [](TrainingSetup& t) { t.gradientCheckpointing = true; }};
  });

  // AI Toolkit's levers of each kind, walked in the guide's order (engine/rollback_order).
  const std::map<LeverKind, const std::vector<Maker>*> byKind = {
      {LeverKind::Frames, &frames},     {LeverKind::Checkpointing, &checkpointing}, {LeverKind::Batch, &batch},
      {LeverKind::Bucket, &bucket},     {LeverKind::Sampling, &sampling},           {LeverKind::LowMemory, &lowMemory}};
  std::vector<Maker> order;
  for (LeverKind kind : rollbackOrder(p.arch && p.arch->isVideo(), failedPhase)) {
    const auto& group = *byKind.at(kind);
    order.insert(order.end(), group.begin(), group.end());
  }
  return order;
}

bool fits(const Estimate& e) { return e.verdict == Verdict::Fits; }

// After a stable run, the guide adds back one heavier setting at a time: a larger bucket, richer
// sampling, a larger batch or a longer video (more steps cost no memory).
std::vector<TrainingLever> rampUpLevers(const TrainerProcess& p, const TrainingSetup& s, const Advice& advice) {
  std::vector<TrainingLever> out;
  auto largest = std::max_element(s.datasets.begin(), s.datasets.end(),
                                  [](const DatasetShape& a, const DatasetShape& b) { return a.resolution < b.resolution; });
  // The next step up (rules/advice.yaml resolution_steps); 0 at or above the last.
  const int next = largest != s.datasets.end() ? advice.stepAbove(largest->resolution) : 0;
  if (next > 0) {
    const std::size_t index = largest->index;
    std::vector<int> current = resolutionsOf(s, index);
    std::vector<int> grown = current;
    grown.push_back(next);
    const Node* written = p.datasets[index].written("resolution");
    const bool wasList = written && written->isSequence();
    out.push_back({p.datasets[index].pathOf("resolution"), wasList ? jsonIntList(current) : jsonInt(current.front()),
                   jsonIntList(grown), "a larger bucket (" + std::to_string(next) + " px)", [index, next](TrainingSetup& t) {
                     for (const auto& d : t.datasets) {
                       if (d.index == index) {
                         DatasetShape bigger = d;
                         bigger.resolution = next;
                         t.datasets.push_back(bigger);
                         break;
                       }
                     }
                   }});
  }
  if (!s.baselineSample && !s.periodicSample && p.train.flag("disable_sampling")) {
    out.push_back({p.train.pathOf("disable_sampling"), "true", "false", "preview samples again",
                   [](TrainingSetup& t) { t.baselineSample = t.periodicSample = true; }});
  }
  out.push_back({p.train.pathOf("batch_size"), jsonInt(s.trainBatch), jsonInt(s.trainBatch * 2), "a larger batch",
                 [](TrainingSetup& t) { t.setTrainBatch(t.trainBatch * 2); }});
  if (s.isVideo() && !s.datasets.empty() && s.arch->frameGrid) {
    auto longest = std::max_element(s.datasets.begin(), s.datasets.end(),
                                    [](const DatasetShape& a, const DatasetShape& b) { return a.frames < b.frames; });
    const int from = longest->frames;
    const int to = static_cast<int>(s.arch->frameGrid->nearestBelow(from * 3 / 2 + s.arch->frameGrid->multiple));
    const std::size_t index = longest->index;
    if (to > from) {
      out.push_back({p.datasets[index].pathOf("num_frames"), jsonInt(from), jsonInt(to), "longer clips",
                     [index, to](TrainingSetup& t) {
                       for (auto& d : t.datasets) {
                         if (d.index == index) d.frames = to;
                       }
                     }});
    }
  }
  return out;
}

}  // namespace

std::vector<PlanStep> rollbackPlan(const TrainerProcess& p, const TrainingSetup& setup, const Estimate& before,
                                   const MemoryModel& m, const Advice& advice, const GpuTarget& gpu,
                                   std::optional<Phase> failedPhase) {
  std::vector<PlanStep> plan;
  if (fits(before)) {
    // Room to spare: what can be added back, each on its own, and still fit.
    for (auto& lever : rampUpLevers(p, setup, advice)) {
      TrainingSetup next = setup;
      lever.apply(next);
      const Estimate after = estimate(next, m, gpu, Detail::Figures);
      if (!fits(after)) continue;
      PlanStep step = planStep(lever, before.peak().peakBytes, after);  // saves < 0: it costs memory
      step.rank = static_cast<int>(plan.size()) + 1;
      step.rampUp = true;
      step.why = "room to add back, one at a time: " + lever.why;
      plan.push_back(step);
    }
    return plan;
  }

  // Walk the levers in order, each applied on top of the previous ones, until the job fits.
  TrainingSetup current = setup;
  double peak = before.peak().peakBytes;
  double high = before.highBytes;
  std::vector<TrainingLever> taken;
  for (const auto& make : leversFor(p, advice, failedPhase)) {
    auto lever = make(current);
    if (!lever) continue;
    TrainingSetup next = current;
    lever->apply(next);
    const Estimate after = estimate(next, m, gpu, Detail::Figures);
    // A step that saves nothing for this config is not listed. Once the expected peak is under the card, what is
    // over it is the range's top (a borderline verdict, e.g. a sampling decode only an older install runs out in): a
    // step that brings the top under the card, or cuts at least a quarter of what is over it, without raising the
    // peak, is one too; a step that nibbles at it is not.
    const double card = static_cast<double>(gpu.vramBytes);
    const bool lowersPeak = peak - after.peak().peakBytes >= kMinPlanSaving;
    const bool lowersHigh = peak <= card && after.peak().peakBytes <= peak + kMinPlanSaving && high - after.highBytes >= kMinPlanSaving &&
                            (after.highBytes <= card || high - after.highBytes >= (high - card) / 4);
    if (!lowersPeak && !lowersHigh) continue;
    PlanStep step = planStep(*lever, peak, after);
    step.topOnly = !lowersPeak;
    plan.push_back(step);
    taken.push_back(*lever);
    current = next;
    peak = after.peak().peakBytes;
    high = after.highBytes;
    if (step.fitsAfter || taken.size() >= 16) break;
  }

  markNeededSteps(plan, [&](const std::vector<std::size_t>& pick) {
    TrainingSetup s = setup;
    for (std::size_t k : pick) taken[k].apply(s);
    return fits(estimate(s, m, gpu, Detail::Figures));
  });
  return plan;
}

}  // namespace oomlint
