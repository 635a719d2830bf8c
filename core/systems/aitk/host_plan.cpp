#include "systems/aitk/host_plan.h"

#include <algorithm>
#include <functional>
#include <optional>

#include "engine/planner.h"
#include "systems/aitk/estimate.h"
#include "systems/aitk/host_ram.h"
#include "base/text/decimal_text.h"

namespace oomlint {

namespace {

using HostLever = Lever<TrainingSetup>;
using HostLeverMaker = std::function<std::optional<HostLever>(const TrainingSetup&)>;

// Offload shares the plan tries, lowest first: the lowest the card still fits is the step.
constexpr double kOffloadShares[] = {0.0, 0.25, 0.5, 0.75};

// What a step is weighed by: the peak, and the largest memory a kernel cannot drop (all but the checkpoint's
// mapped pages), which is what decides an oom; a step that lowers either is worth listing.
struct HostPressure {
  double peak = 0;
  double committed = 0;
  explicit HostPressure(const HostEstimate& h) : peak(h.peak().peakBytes) {
    for (const auto& phase : h.phases) committed = std::max(committed, h.committedBytes(phase));
  }
  double savedBy(const HostPressure& after) const { return std::max(peak - after.peak, committed - after.committed); }
};

std::vector<HostLeverMaker> hostLevers(const TrainerProcess& p, const MemoryModel& m, const GpuTarget& gpu) {
  auto vramFits = [&m, &gpu](const TrainingSetup& s) { return estimate(s, m, gpu, Detail::Figures).verdict == Verdict::Fits; };
  // An offload share lowered to the lowest the card still fits, or nothing.
  auto fewerOffloaded = [vramFits](const TrainingSetup& s, double current, void (*set)(TrainingSetup&, double)) -> std::optional<double> {
    for (double share : kOffloadShares) {
      if (share >= current) break;
      TrainingSetup next = s;
      set(next, share);
      if (vramFits(next)) return share;
    }
    return std::nullopt;
  };
  std::vector<HostLeverMaker> out;
  out.push_back([&p, vramFits](const TrainingSetup& s) -> std::optional<HostLever> {
    if (!s.lowVram) return std::nullopt;
    TrainingSetup next = s;
    next.lowVram = false;
    if (!vramFits(next)) return std::nullopt;
    return HostLever{p.model.pathOf("low_vram"), "true", "false",
                     "quantize on the GPU and keep the model there: low_vram quantizes on the CPU and parks modules in RAM (the card has room)",
                     [](TrainingSetup& t) { t.lowVram = false; }};
  });
  out.push_back([&p, fewerOffloaded](const TrainingSetup& s) -> std::optional<HostLever> {
    if (!s.layerOffloading || !s.arch->layerOffloading) return std::nullopt;
    auto share = fewerOffloaded(s, s.offloadTransformer, [](TrainingSetup& t, double v) { t.offloadTransformer = v; });
    if (!share) return std::nullopt;
    return HostLever{p.model.pathOf("layer_offloading_transformer_percent"), generalText(s.offloadTransformer), generalText(*share),
                     "offload fewer transformer layers: every offloaded Linear weight is pinned in RAM (the card has room for these)",
                     [v = *share](TrainingSetup& t) { t.offloadTransformer = v; }};
  });
  out.push_back([&p, fewerOffloaded](const TrainingSetup& s) -> std::optional<HostLever> {
    if (!s.layerOffloading || !s.arch->layerOffloading || s.cacheTextEmbeddings || s.arch->textEncoderParams() <= 0) return std::nullopt;
    auto share = fewerOffloaded(s, s.offloadTextEncoder, [](TrainingSetup& t, double v) { t.offloadTextEncoder = v; });
    if (!share) return std::nullopt;
    return HostLever{p.model.pathOf("layer_offloading_text_encoder_percent"), generalText(s.offloadTextEncoder), generalText(*share),
                     "offload fewer text-encoder layers: every offloaded Linear weight is pinned in RAM (the card has room for these)",
                     [v = *share](TrainingSetup& t) { t.offloadTextEncoder = v; }};
  });
  out.push_back([&p](const TrainingSetup& s) -> std::optional<HostLever> {
    if (s.numWorkers <= 0 || p.datasets.empty()) return std::nullopt;
    return HostLever{p.datasets.front().pathOf("num_workers"), std::to_string(s.numWorkers), "0",
                     "load data in the trainer process: no worker processes (data loading is slower; nothing else changes)",
                     [](TrainingSetup& t) { t.numWorkers = 0; }};
  });
  out.push_back([&p](const TrainingSetup& s) -> std::optional<HostLever> {
    if (s.quantize) return std::nullopt;
    const bool encoderFollows = !p.model.has("quantize_te");  // quantize_te follows quantize when not written
    return HostLever{p.model.pathOf("quantize"), "false", "true",
                     "quantize the transformer: the copy the loader keeps in RAM is about half the bf16 bytes",
                     [encoderFollows](TrainingSetup& t) { quantizeModel(t, encoderFollows); }};
  });
  return out;
}

}  // namespace

std::vector<PlanStep> hostRamPlan(const TrainerProcess& p, const TrainingSetup& setup, const MemoryModel& m, const GpuTarget& gpu,
                                  const HostEstimate& host) {
  std::vector<PlanStep> plan;
  if (!host.verdict || *host.verdict == Verdict::Fits) return plan;
  auto reestimate = [&](const TrainingSetup& s) { return hostRamEstimate(s, m, host.ramBytes, host.logKilled); };
  TrainingSetup current = setup;
  HostPressure before(host);
  std::vector<HostLever> taken;
  for (const auto& make : hostLevers(p, m, gpu)) {
    auto lever = make(current);
    if (!lever) continue;
    TrainingSetup next = current;
    lever->apply(next);
    const HostEstimate after = reestimate(next);
    const double saved = before.savedBy(HostPressure(after));
    if (saved < kMinPlanSaving) continue;
    PlanStep step;
    step.fix = lever->fix;
    step.savesBytes = saved;
    step.peakBytesAfter = after.peak().peakBytes;
    step.fitsAfter = after.verdict == Verdict::Fits;
    step.why = lever->why;
    plan.push_back(step);
    taken.push_back(*lever);
    current = next;
    before = HostPressure(after);
    if (step.fitsAfter) break;
  }
  markNeededSteps(plan, [&](const std::vector<std::size_t>& pick) {
    TrainingSetup s = setup;
    for (std::size_t k : pick) taken[k].apply(s);
    return reestimate(s).verdict == Verdict::Fits;
  });
  return plan;
}

}  // namespace oomlint
