#include "systems/aitk/system.h"

#include <algorithm>

#include "base/document/reader.h"
#include "engine/edits.h"
#include "engine/verdict_findings.h"
#include "policy/suppressions.h"
#include "systems/aitk/checks/checks.h"
#include "systems/aitk/host_plan.h"
#include "systems/aitk/host_ram.h"
#include "systems/aitk/job.h"
#include "systems/aitk/plan.h"
#include "systems/aitk/setup.h"

namespace oomlint {

namespace {

// Where a plan step's setting is written; for a resolution list, the largest entry in it.
Range peakDriverRange(const Node* root, const PlanStep& step) {
  const Node* value = valueAtPath(root, step.fix.path);
  if (value != nullptr && step.fix.path.lastKey() == "resolution" && value->isSequence()) {
    const Node* largest = nullptr;
    for (const Node* item : value->resolved()->items) {
      if (item->isNumber() && (largest == nullptr || item->number() > largest->number())) largest = item;
    }
    if (largest != nullptr) return largest->range;
  }
  return rangeOfPath(root, step.fix.path);
}

void reportEstimate(const TrainerProcess& process, const Node* root, FileReport& file, Findings& findings) {
  // OL501/OL502 sit on the first needed key; OL503 on each step's value (a list's largest entry).
  const VerdictAnchors anchors{.fallback = process.typeRange,
                               .fallbackPath = process.path,
                               .stepRange = [&](const PlanStep& step) { return peakDriverRange(root, step); },
                               .verdictRange = [&](const PlanStep& step) { return rangeOfPath(root, step.fix.path); },
                               .windows = windowsPathUnder(process.node, process.path)};
  reportVerdict(*file.estimate, file.plan, anchors, findings);
}

// A log that ran out of memory in a phase the estimate says fits with room points away from the config.
void compareWithLog(const LogAnalysis& log, const Estimate& e, const Node* root, const Advice& advice, Findings& findings) {
  if (!log.oom || log.kind == OomKind::HostRam || !log.numbers.totalCapacity) return;
  const Phase phase = log.phase == Phase::VaeDecode ? Phase::Sample : log.phase;
  for (const auto& p : e.phases) {
    if (p.phase != phase) continue;
    const double capacity = static_cast<double>(*log.numbers.totalCapacity);
    if (p.highBytes < advice.logDisagreementFraction * capacity) {
      findings.report(RuleId::OL607, rangeOfPath(root, KeyPath::of({"job"})), {},
                      "the log ran out of memory in " + std::string(toString(log.phase)) + " on a " + formatGiB(capacity) +
                          " card, but this config's " + std::string(toString(p.phase)) + " is estimated at " + formatRange(p) + ": another process was using the GPU, or the log comes from a "
                          "different config");
    }
    return;
  }
}

// The host-RAM estimate beside the VRAM one, its plan, and OL504/OL505 when the RAM was given or the
// attached log shows a host-RAM kill (as the log's card feeds the VRAM estimate).
void estimateHostRam(const TrainerProcess& process, const TrainingSetup& setup, const MemoryModel& model, const GpuTarget& gpu,
                     const SystemContext& context, const Node* root, FileReport& file, Findings& findings) {
  const bool logKilled = context.attachedLog && context.attachedLog->oom && context.attachedLog->kind == OomKind::HostRam;
  HostEstimate& host = file.estimate->host.emplace(hostRamEstimate(setup, model, context.ramBytes, logKilled));
  if (logKilled) host.logPhase = context.attachedLog->phase;
  file.hostPlan = hostRamPlan(process, setup, model, gpu, host);
  std::string advice;
  if (!host.notes.empty() && std::any_of(setup.datasets.begin(), setup.datasets.end(), [](const DatasetShape& d) { return d.latentsInMemory; })) {
    advice = "cache_latents keeps every latent in RAM as well (not counted: the dataset's size is not in the config); "
             "cache_latents_to_disk alone keeps them on disk";
  }
  const VerdictAnchors anchors{.fallback = process.typeRange,
                               .fallbackPath = process.path,
                               .verdictRange = [&](const PlanStep& step) { return rangeOfPath(root, step.fix.path); }};
  reportHostVerdict(host, file.hostPlan, anchors, advice, findings);
}

}  // namespace

std::optional<std::pair<const TrainerProcess*, TrainingSetup>> AitkSystem::estimatedProcess(const JobModel& job) {
  for (const auto& process : job.trainers) {
    if (auto setup = setupFrom(process)) return std::pair{&process, std::move(*setup)};
  }
  return std::nullopt;
}

std::optional<TrainingSetup> AitkSystem::estimatedSetup(const Input& input, const Knowledge& knowledge, const ReadLimits& limits) {
  const auto doc = readDocument(input.text, limits);
  if (doc->fatal() || doc->root() == nullptr || !doc->root()->isMapping()) return std::nullopt;
  const JobModel job = buildJobModel(doc->root(), knowledge);
  auto estimated = estimatedProcess(job);
  return estimated ? std::optional(std::move(estimated->second)) : std::nullopt;
}

Recognition AitkSystem::recognise(std::string_view head) const {
  for (std::size_t pos = 0; pos < head.size();) {
    const std::size_t end = std::min(head.find('\n', pos), head.size());
    const std::string_view line = head.substr(pos, end - pos);
    if (line.starts_with("job:") || line.starts_with("config:") || line.starts_with("\"job\"")) return Recognition::Certain;
    pos = end + 1;
  }
  return Recognition::No;
}

FileReport AitkSystem::analyze(const Input& input, const SystemContext& context) const {
  FileReport file;
  file.path = input.path;
  file.kind = kind();
  auto doc = readDocument(input.text, context.limits);
  file.source = doc->sharedSource();
  Findings findings;
  for (const auto& problem : doc->problems()) findings.report(problem.code, problem.range, {}, problem.message);
  if (doc->fatal()) {
    file.unreadable = true;
  } else if (const Node* root = doc->root(); root == nullptr || !root->isMapping()) {
    const Range at = root ? Range{root->range.start, root->range.start} : Range{};
    findings.report(RuleId::OL107, at, {},
                    root == nullptr || root->isNull()
                        ? "the file is empty: an AI Toolkit job is a mapping with `job` and `config` keys"
                        : "the top level is " + std::string(root->isSequence() ? "a list" : "a single value") +
                              ": an AI Toolkit job is a mapping with `job` and `config` keys");
    file.unreadable = true;
  } else {
    const JobModel job = buildJobModel(root, context.knowledge);
    for (const auto& check : aitkJobChecks()) check.run({job, context.knowledge}, findings);
    for (const auto& process : job.trainers) {
      for (const auto& check : aitkTrainerChecks()) check.run({process, context.knowledge}, findings);
    }
    auto estimated = estimatedProcess(job);
    auto gpu = context.gpu;
    if (estimated && gpu) {
      const TrainerProcess& process = *estimated->first;
      const TrainingSetup* setup = &estimated->second;
      file.gpuGiven = context.gpuGiven;
      const LogAnalysis* log = context.attachedLog;
      if (log) {
        file.log = *log;
        // The card the run really had beats an assumed one.
        if (!file.gpuGiven && log->numbers.totalCapacity) {
          gpu = GpuTarget{"GPU in the log", static_cast<std::uint64_t>(*log->numbers.totalCapacity)};
          file.gpuGiven = true;
        }
      }
      const MemoryModel& model = context.knowledge.memory;
      file.estimate = estimate(*setup, model, *gpu);
      file.estimate->assumes = context.knowledge.architectures.assumes();
      file.plan = rollbackPlan(process, *setup, *file.estimate, model, context.knowledge.advice, *gpu,
                               log ? std::optional(log->phase) : std::nullopt);
      if (file.gpuGiven) reportEstimate(process, root, file, findings);
      if (log) compareWithLog(*log, *file.estimate, root, context.knowledge.advice, findings);
      estimateHostRam(process, *setup, model, *gpu, context, root, file, findings);
    }
  }
  if (!doc->fatal()) {
    placeFixes(*doc, file.plan, findings.all());
    for (auto& step : file.hostPlan) placeFix(*doc, step.fix);
    applySuppressions(findings.all(), findSuppressions(*doc), context.suppressionsAllowed);
  }
  file.diagnostics = std::move(findings.all());
  sortDiagnostics(file.diagnostics);
  return file;
}

}  // namespace oomlint
