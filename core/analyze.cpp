#include "analyze.h"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <new>

#include "engine/config_edit.h"
#include "policy/suppressions.h"
#include "systems/aitk/plan.h"
#include "engine/verdict_findings.h"
#include "systems/aitk/checks/checks.h"
#include "systems/aitk/job.h"
#include "base/document/reader.h"
#include "systems/aitk/setup.h"
#include "base/knowledge/knowledge.h"
#include "systems/logs/diagnose.h"
#include "base/text/suggest.h"
#include "systems/webui/analyze_webui.h"
#include "systems/webui/webui_input.h"

namespace oomlint {

namespace {

// Where a plan step's setting is written; for a resolution list, the largest entry in it.
Range peakDriverRange(const Node* root, const PlanStep& step) {
  const Node* value = valueAtPath(root, step.path);
  if (value != nullptr && step.path.ends_with(".resolution") && value->isSequence()) {
    const Node* largest = nullptr;
    for (const Node* item : value->resolved()->items) {
      if (item->isNumber() && (largest == nullptr || item->number() > largest->number())) largest = item;
    }
    if (largest != nullptr) return largest->range;
  }
  return rangeOfPath(root, step.path);
}

void reportEstimate(const TrainerProcess& process, const Node* root, FileReport& file, Findings& findings) {
  // OL501/OL502 sit on the first needed key; OL503 on each step's value (a list's largest entry).
  const VerdictAnchors anchors{process.typeRange, process.path, [&](const PlanStep& step) { return peakDriverRange(root, step); },
                               [&](const PlanStep& step) { return rangeOfPath(root, step.path); }, "", ""};
  reportVerdict(*file.estimate, file.plan, anchors, findings);
}

// A log that ran out of memory in a phase the estimate says fits with room points away from the config.
void compareWithLog(const LogAnalysis& log, const Estimate& e, const Node* root, Findings& findings) {
  if (!log.oom || log.kind == OomKind::HostRam || !log.numbers.totalCapacity) return;
  const Phase phase = log.phase == Phase::VaeDecode ? Phase::Sample : log.phase;
  for (const auto& p : e.phases) {
    if (p.name != toString(phase)) continue;
    const double capacity = static_cast<double>(*log.numbers.totalCapacity);
    if (p.peakBytes + p.uncertaintyBytes < knowledge().advice.logDisagreementFraction * capacity) {
      findings.report(RuleId::OL607, rangeOfPath(root, "job"), "",
                      "the log ran out of memory in " + std::string(toString(log.phase)) + " on a " + formatGiB(capacity) +
                          " card, but this config's " + p.name + " is estimated at " + formatGiB(p.peakBytes) + " ± " +
                          gib(p.uncertaintyBytes) + ": another process was using the GPU, or the log comes from a "
                          "different config");
    }
    return;
  }
}

// Each plan step as a text edit at exact positions, so a front end can apply it where it stands.
void attachEdits(const Document& doc, std::vector<PlanStep>& plan) {
  for (auto& step : plan) {
    if (auto edit = editFor(doc, ValueChange{step.path, step.toJson})) {
      step.edit = PlanStep::Edit{doc.source().rangeOf(edit->begin, edit->end), std::move(edit->text)};
    }
  }
}

FileReport analyzeJob(const Input& input, const AnalyzeOptions& options) {
  FileReport file;
  file.path = input.path;
  file.kind = "ai-toolkit-job";
  auto doc = readDocument(input.text, options.limits);
  file.source = doc->sharedSource();
  Findings findings;
  for (const auto& problem : doc->problems()) findings.report(problem.code, problem.range, "", problem.message);
  if (doc->fatal()) {
    file.unreadable = true;
  } else if (const Node* root = doc->root(); root == nullptr || !root->isMapping()) {
    const Range at = root ? Range{root->range.start, root->range.start} : Range{};
    findings.report(RuleId::OL107, at, "",
                    root == nullptr || root->isNull()
                        ? "the file is empty: an AI Toolkit job is a mapping with `job` and `config` keys"
                        : "the top level is " + std::string(root->isSequence() ? "a list" : "a single value") +
                              ": an AI Toolkit job is a mapping with `job` and `config` keys");
    file.unreadable = true;
  } else {
    checkSchema(root, findings);
    const JobModel job = buildJobModel(root);
    checkJob(job, findings);
    for (const auto& process : job.trainers) {
      for (const auto& check : trainerChecks()) check.run(process, findings);
    }
    // The estimate is for the first trainer whose model is known (jobs run their processes in turn).
    for (const auto& process : job.trainers) {
      auto setup = setupFrom(process);
      auto gpu = resolveGpu(options);
      if (!setup || !gpu) continue;
      file.gpuGiven = options.gpu.has_value() || options.vramGib.has_value();
      if (options.attachedLog) {
        file.log = options.attachedLog;
        // The card the run really had beats an assumed one.
        if (!file.gpuGiven && options.attachedLog->numbers.totalCapacity) {
          gpu = GpuTarget{"GPU in the log", static_cast<std::uint64_t>(*options.attachedLog->numbers.totalCapacity)};
          file.gpuGiven = true;
        }
      }
      const MemoryModel& model = knowledge().memory;
      file.estimate = estimate(*setup, model, *gpu);
      file.plan = rollbackPlan(process, *setup, model, *gpu,
                               options.attachedLog ? std::optional(options.attachedLog->phase) : std::nullopt);
      attachEdits(*doc, file.plan);
      if (file.gpuGiven) reportEstimate(process, root, file, findings);
      if (options.attachedLog) compareWithLog(*options.attachedLog, *file.estimate, root, findings);
      break;
    }
  }
  if (!doc->fatal()) applySuppressions(findings.all(), findSuppressions(*doc), options.policy.suppressionsAllowed());
  file.diagnostics = std::move(findings.all());
  sortDiagnostics(file.diagnostics);
  return file;
}

bool startsWithJobKey(std::string_view head) {
  for (std::size_t pos = 0; pos < head.size();) {
    const std::size_t end = std::min(head.find('\n', pos), head.size());
    const std::string_view line = head.substr(pos, end - pos);
    if (line.starts_with("job:") || line.starts_with("config:") || line.starts_with("\"job\"")) return true;
    pos = end + 1;
  }
  return false;
}

}  // namespace

bool isLogText(std::string_view head) {
  return !looksLikeJson(head) && !startsWithJobKey(head) && !looksLikeGenerationProfile(head) && looksLikeLog(head);
}

FileReport logReport(std::string path, const LogAnalysis& log, const Policy& policy) {
  FileReport file;
  file.path = std::move(path);
  file.kind = "log";
  file.log = log;
  Findings findings;
  diagnoseLog(log, nullptr, findings);
  file.diagnostics = std::move(findings.all());
  applyPolicy(file.diagnostics, policy);
  return file;
}

std::optional<GpuTarget> resolveGpu(const AnalyzeOptions& options, std::string* error) {
  if (options.vramGib) {
    if (!(*options.vramGib > 0 && *options.vramGib < 100000)) {
      if (error) *error = "--vram must be a positive number of GiB";
      return std::nullopt;
    }
    char label[32];
    std::snprintf(label, sizeof label, "%g GiB", *options.vramGib);
    return GpuTarget{label, static_cast<std::uint64_t>(*options.vramGib * 1024.0 * 1024.0 * 1024.0)};
  }
  const GpuCatalog& gpus = knowledge().gpus;
  const std::string name = options.gpu.value_or(kDefaultGpu);
  if (const Gpu* gpu = gpus.find(name)) return GpuTarget{gpu->name, gpu->linuxBytes};
  if (error) {
    *error = "unknown GPU '" + name + "'";
    if (auto near = closestMatch(normalizeGpuName(name), [&] {
          std::vector<std::string> keys;
          for (const auto& g : gpus.all()) keys.push_back(normalizeGpuName(g.name));
          return keys;
        }())) {
      for (const auto& g : gpus.all()) {
        if (normalizeGpuName(g.name) == *near) *error += "; did you mean '" + g.name + "'?";
      }
    }
    *error += " (oomlint gpus lists the catalog, or give --vram GIB)";
  }
  return std::nullopt;
}

namespace {

// An exception out of the analysis is a bug in oomlint, not a problem of the input (exit 3).
FileReport internalErrorReport(const Input& input, std::string_view what) {
  FileReport file;
  file.path = input.path;
  file.kind = "ai-toolkit-job";
  file.unreadable = true;
  file.internalError = "oomlint failed on this input (" + std::string(what) +
                       "): this is a bug in oomlint; please report it with the input";
  return file;
}

}  // namespace

FileReport analyzeGuarded(const Input& input, const std::function<FileReport()>& analysis) {
  try {
    return analysis();
  } catch (const std::bad_alloc&) {
    // Memory ran out on this input: a limit of the machine, reported as the input's (exit 2).
    FileReport file;
    file.path = input.path;
    file.kind = "ai-toolkit-job";
    file.unreadable = true;
    file.diagnostics.push_back({RuleId::OL103, Severity::Error, "input limit: out of memory while analysing this input", "", {}, {}});
    return file;
  } catch (const std::exception& error) {
    return internalErrorReport(input, error.what());
  } catch (...) {
    return internalErrorReport(input, "an unknown exception");
  }
}

namespace {

// A config or a log, told apart by content.
FileReport analyzeText(const Input& input, const AnalyzeOptions& options) {
  const std::string_view head = std::string_view(input.text).substr(0, 1 << 16);
  auto asLog = [&] {
    FileReport file = logReport(input.path, analyzeLog(input.text));
    file.source = std::make_shared<const SourceText>(input.text);
    return file;
  };
  if (isLogText(head)) return asLog();
  // A launch line or parameters block is a few lines; text with log signs (a traceback, progress
  // bars, "Loading …") that merely quotes a launch command is a log.
  if (!startsWithJobKey(head) &&
      (looksLikeGenerationProfile(head) || (looksLikeWebUiInput(head) && !looksLikeLog(head)))) {
    return analyzeWebUi(input, resolveGpu(options), options.gpu.has_value() || options.vramGib.has_value(),
                        options.policy.suppressionsAllowed());
  }
  FileReport job = analyzeJob(input, options);
  // Text that YAML cannot read, with no job keys in sight, is a log without the usual markers; so
  // is "JSON" that fails at once but reads like a log (`[2025-02-10 22:31:05,118]::[InvokeAI]…`).
  const bool syntaxError = std::any_of(job.diagnostics.begin(), job.diagnostics.end(),
                                       [](const Diagnostic& d) { return d.code == RuleId::OL101; });
  if (syntaxError && !startsWithJobKey(head) && (!looksLikeJson(head) || looksLikeLog(head))) return asLog();
  return job;
}

}  // namespace

FileReport analyzeInput(const Input& input, const AnalyzeOptions& options) {
  FileReport file = analyzeGuarded(input, [&] { return analyzeText(input, options); });
  applyPolicy(file.diagnostics, options.policy);
  return file;
}

Report analyze(const std::vector<Input>& inputs, const AnalyzeOptions& options) {
  Report report;
  const Knowledge& k = knowledge();
  if (!k.loadErrors.empty()) {
    report.internalError = "the embedded rules data is invalid: " + k.loadErrors.front();
    return report;
  }
  for (const auto& input : inputs) report.add(analyzeInput(input, options));
  return report;
}

FixResult fixConfig(const Input& input, const AnalyzeOptions& options) {
  FixResult result;
  result.before = analyzeInput(input, options);
  result.text = input.text;
  if (result.before.unreadable) return result;
  std::vector<ValueChange> changes;
  for (const auto& step : result.before.plan) {
    if (!step.needed || step.rampUp) continue;
    result.applied.push_back(step);
    changes.push_back({step.path, step.toJson});
  }
  if (changes.empty()) return result;
  if (result.before.kind == "webui-args") {
    // A launch line or generation profile: the plan's exact edits, last first so offsets stay valid.
    std::vector<const PlanStep*> edits;
    for (const auto& step : result.applied) {
      if (step.edit) edits.push_back(&step);
      else result.skipped.push_back(step.path + ": no place for it in this input (use a generation profile)");
    }
    std::sort(edits.begin(), edits.end(), [](const PlanStep* a, const PlanStep* b) {
      return a->edit->range.start.offset > b->edit->range.start.offset;
    });
    for (const PlanStep* step : edits) {
      const std::size_t begin = step->edit->range.start.offset, end = step->edit->range.end.offset;
      result.text.replace(begin, end - begin, step->edit->text);
    }
    return result;
  }
  auto doc = readDocument(input.text, options.limits);
  EditResult edited = applyChanges(*doc, changes);
  result.text = std::move(edited.text);
  result.skipped = std::move(edited.skipped);
  return result;
}

}  // namespace oomlint
