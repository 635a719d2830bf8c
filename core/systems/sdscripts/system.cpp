#include "systems/sdscripts/system.h"

#include <algorithm>

#include "base/text/ascii.h"
#include "engine/edits.h"
#include "engine/verdict_findings.h"
#include "policy/suppressions.h"
#include "systems/aitk/host_ram.h"
#include "systems/sdscripts/checks/checks.h"
#include "systems/sdscripts/estimate.h"
#include "systems/sdscripts/plan.h"

namespace oomlint {

namespace {

// A new argument at the end of the command line, laid out like the last one.
Edit appendArgument(const SdFile& file, const std::string& name, const std::string& value) {
  const std::string text = file.appendSeparator + "--" + name + (value.empty() ? "" : " " + value);
  return Edit{file.source->rangeOf(file.appendOffset, file.appendOffset), text};
}

// Writes a plan step's change into the file being analysed, where the job has it: the argument's value
// where it is written (here, else the step says which file), else a new argument on the command line
// (or, with none in the job, a key of this config file or GUI JSON).
void placeChange(const SdJob& job, std::size_t here, const SdChange& change, Fix& fix) {
  fix.edits.clear();
  fix.unplaced.clear();
  const SdFile& file = job.files[here];
  if (change.dataset) {
    const SdFile* dataset = job.dataset();
    if (dataset != &file) {
      fix.unplaced = fix.path.toString() + ": in the dataset TOML" + (dataset ? " (" + dataset->path + ")" : "");
      return;
    }
    if (auto edit = editFor(*file.doc, change.dataset->path, fix.toJson, &fix.unplaced)) fix.edits.push_back(*edit);
    return;
  }
  if (const SdArg* arg = job.find(change.arg)) {
    if (arg->file != here) {
      fix.unplaced = fix.path.toString() + ": set in " + job.files[arg->file].path;
      return;
    }
    if (file.kind == SdFileKind::CommandLine) {
      if (arg->valueRange) fix.edits.push_back({*arg->valueRange, change.cliValue.empty() ? "true" : change.cliValue});
      else if (!change.cliValue.empty()) fix.edits.push_back({file.source->rangeOf(arg->range.end.offset, arg->range.end.offset), " " + change.cliValue});
      return;
    }
    if (auto edit = editFor(*file.doc, arg->path, fix.toJson, &fix.unplaced)) fix.edits.push_back(*edit);
    return;
  }
  const auto commandLine = std::find_if(job.files.begin(), job.files.end(), [](const SdFile& f) { return f.kind == SdFileKind::CommandLine; });
  if (commandLine != job.files.end()) {
    if (&*commandLine != &file) {
      fix.unplaced = fix.path.toString() + ": add it to the command line (" + commandLine->path + ")";
      return;
    }
    fix.edits.push_back(appendArgument(file, change.arg, change.cliValue));
    return;
  }
  if (file.doc && (file.kind == SdFileKind::ConfigFile || file.kind == SdFileKind::GuiJson)) {
    if (auto edit = editFor(*file.doc, KeyPath::of({change.arg}), fix.toJson, &fix.unplaced)) fix.edits.push_back(*edit);
    return;
  }
  fix.unplaced = fix.path.toString() + ": not in this file (give the command line or the config file)";
}

// Where this file shows the job runs on Windows: an argument's value on a drive or a share, else a Windows script
// (.bat, .cmd, .ps1) at its script word.
std::optional<WindowsEvidence> windowsEvidenceIn(const SdFile& file, Range scriptAt) {
  for (const auto& arg : file.args) {
    for (const auto& value : arg.values) {
      if (isWindowsPath(value)) return WindowsEvidence{arg.valueRange.value_or(arg.range), arg.path, value};
    }
  }
  const std::string name = lowercase(file.path);
  for (const char* script : {".bat", ".cmd", ".ps1"}) {
    if (name.ends_with(script)) return WindowsEvidence{scriptAt, {}, file.path};
  }
  return std::nullopt;
}

std::string familyText(const SdSetup& s) {
  return "(" + (s.script ? std::string(s.script->name) : std::string("sd-scripts")) + ", " + (s.arch ? std::string(s.arch->label) : std::string("?")) + " " +
         std::to_string(s.resolution.value) + " px" + (s.resolutionAssumed ? " assumed" : "") + ", batch " + std::to_string(s.trainBatch.value) + ")";
}

}  // namespace

Recognition TrainerSystem::recognise(std::string_view head) const {
  const auto kind = sdFileKind(head, *(knowledge().*tool_));
  if (!kind) return Recognition::No;
  if (*kind != SdFileKind::CommandLine) return Recognition::Certain;
  return runsTrainerScript(head, *(knowledge().*tool_)) ? Recognition::Certain : Recognition::Likely;
}

FileReport TrainerSystem::analyze(const Input& input, const SystemContext& context) const {
  FileReport file;
  file.path = input.path;
  file.kind = kind();
  const std::vector<const Input*> inputs = jobInputs(input, context.companionInputs());
  const TrainerTool& tool = *(context.knowledge.*tool_);
  SdJob job = readSdJob(inputs, tool, context.limits);
  const auto here = std::find_if(job.files.begin(), job.files.end(), [&](const SdFile& f) { return f.input == &input; });
  Findings findings;
  if (here == job.files.end()) {
    file.unreadable = true;
    file.diagnostics.push_back({RuleId::OL107, Severity::Error, "not a " + tool.id + " file", {}, {}, {}});
    return file;
  }
  const std::size_t index = static_cast<std::size_t>(here - job.files.begin());
  const SdFile& current = *here;
  file.source = current.source;
  if (current.doc) {
    for (const auto& problem : current.doc->problems()) findings.report(problem.code, problem.range, {}, problem.message);
    if (current.doc->fatal()) file.unreadable = true;
  }
  if (!file.unreadable) {
    const SdSetup setup = setupFrom(job, context.knowledge.architectures);
    const SdCheckContext checkContext{job, setup, index, tool};
    for (const auto& check : sdScriptsChecks()) check.run(checkContext, findings);
    auto gpu = context.gpu;
    file.gpuGiven = context.gpuGiven;
    if (const LogAnalysis* log = context.attachedLog) {
      file.log = *log;
      // The card the run really had beats an assumed one.
      if (!file.gpuGiven && log->numbers.totalCapacity) {
        gpu = GpuTarget{"GPU in the log", static_cast<std::uint64_t>(*log->numbers.totalCapacity)};
        file.gpuGiven = true;
      }
    }
    if (setup.arch != nullptr && gpu) {
      file.estimate = estimateSdScripts(setup, context.knowledge.memory, *gpu);
      SdPlan plan = sdRollbackPlan(setup, *file.estimate, context.knowledge.memory, context.knowledge.advice, *gpu);
      for (std::size_t i = 0; i < plan.steps.size(); ++i) placeChange(job, index, plan.changes[i], plan.steps[i].fix);
      file.plan = std::move(plan.steps);
      const Range fallback = current.scriptRange.end.offset > 0 ? current.scriptRange : current.source->rangeOf(0, 0);
      const auto stepRange = [&](const PlanStep& step) { return step.fix.edits.empty() ? fallback : step.fix.edits.front().range; };
      if (file.gpuGiven) {
        reportVerdict(*file.estimate, file.plan,
                      VerdictAnchors{.fallback = fallback,
                                     .stepRange = stepRange,
                                     .verdictRange = stepRange,
                                     .context = familyText(setup),
                                     .assumed = job.jobAssumed ? job.scriptSource : "",
                                     .windows = windowsEvidenceIn(current, fallback)},
                      findings);
      }
      // Host RAM: sd-scripts loads every model on the CPU first and keeps swapped blocks there, as the
      // shared host-RAM arithmetic models for the mapped setup.
      HostEstimate& host = file.estimate->host.emplace(hostRamEstimate(trainingSetupFor(setup), context.knowledge.memory, context.ramBytes));
      reportHostVerdict(host, {}, VerdictAnchors{.fallback = fallback, .verdictRange = stepRange}, "", findings);
    }
  }
  if (current.doc && !current.doc->fatal()) {
    for (auto& d : findings.all()) {
      if (d.fix) placeFix(*current.doc, *d.fix);
    }
    if (current.doc->format() != DocumentFormat::Json) applySuppressions(findings.all(), findSuppressions(*current.doc), context.suppressionsAllowed);
  }
  file.diagnostics = std::move(findings.all());
  sortDiagnostics(file.diagnostics);
  return file;
}

}  // namespace oomlint
