#include "analyze.h"

#include <algorithm>
#include <exception>
#include <new>

#include "base/document/reader.h"
#include "base/knowledge/knowledge.h"
#include "base/text/ascii.h"
#include "base/text/suggest.h"
#include "engine/edits.h"
#include "policy/suppressions.h"
#include "systems/aitk/system.h"
#include "systems/comfyui/system.h"
#include "systems/logs/log_analysis.h"
#include "systems/logs/system.h"
#include "systems/other_trainers/system.h"
#include "systems/sdscripts/system.h"
#include "systems/webui/system.h"
#include "base/text/decimal_text.h"

namespace oomlint {

namespace {

// The systems, stateless, in the order their certain recognitions are asked.
struct Systems {
  ComfyUiSystem comfyui;
  AitkSystem aitk;
  OtherTrainerSystem otherTrainers;
  TrainerSystem sdScripts = sdScriptsSystem();
  TrainerSystem musubiTuner = musubiTunerSystem();
  WebUiSystem webui;
  LogSystem logs;
};

// Which system reads a text: a system's own top-level keys are certain (a job's before a generation
// profile's); then a log (a launch command quoted in a log, with a traceback, progress bars or
// "Loading …" around it, is a log); then a launch line or parameters block; any other text is read as a
// job, whose syntax errors may still show it to be a log (analyzeText).
const System& systemFor(const Systems& systems, std::string_view head) {
  // A workflow first: its markers (`class_type`, a PNG signature) are no other kind's.
  // Another trainer's config before sd-scripts' and musubi-tuner's, which take any TOML or JSON of settings for theirs.
  for (const System* system : {static_cast<const System*>(&systems.comfyui), static_cast<const System*>(&systems.aitk),
                               static_cast<const System*>(&systems.otherTrainers), static_cast<const System*>(&systems.sdScripts),
                               static_cast<const System*>(&systems.musubiTuner), static_cast<const System*>(&systems.webui)}) {
    if (system->recognise(head) == Recognition::Certain) return *system;
  }
  // A shell script (a shebang) that runs a trainer, though its echo lines read as console output; a log
  // that quotes the command it ran is a log.
  const bool log = looksLikeLog(head);
  const bool script = head.starts_with("#!");
  for (const TrainerSystem* trainer : {&systems.sdScripts, &systems.musubiTuner}) {
    if (!log && script && trainer->recognise(head) == Recognition::Certain) return *trainer;
  }
  if (systems.logs.recognise(head) != Recognition::No) return systems.logs;
  // Otherwise a command line running a trainer (its `--flag value` lines would read as a WebUI launch line).
  for (const TrainerSystem* trainer : {&systems.sdScripts, &systems.musubiTuner}) {
    if (!log && trainer->recognise(head) != Recognition::No) return *trainer;
  }
  if (systems.webui.recognise(head) != Recognition::No && !looksLikeLog(head)) return systems.webui;
  return systems.aitk;
}

// A TOML or INI line: `key = value` with a bare key, or a `[section]` header. YAML reads a TOML config as
// one long value, but it is a config all the same.
bool isTomlLine(std::string_view line) {
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) line.remove_suffix(1);
  const auto bare = [](char c) { return isAsciiAlnum(c) || c == '_' || c == '-' || c == '.'; };
  if (line.size() > 2 && line.front() == '[' && line.back() == ']') {
    const std::string_view name = line.substr(line.starts_with("[[") ? 2 : 1, line.size() - (line.starts_with("[[") ? 4 : 2));
    return !name.empty() && std::all_of(name.begin(), name.end(), bare);
  }
  std::size_t key = 0;
  while (key < line.size() && bare(line[key])) ++key;
  std::size_t eq = key;
  while (eq < line.size() && line[eq] == ' ') ++eq;
  return key > 0 && eq < line.size() && line[eq] == '=' && (eq + 1 == line.size() || line[eq + 1] != '=');
}

// Text YAML reads that is no config: one value of several words (prose, code, a console line or two),
// or a mapping whose keys no config writes (a config's keys are lowercase names; "Exception: …",
// "Problematic images: […]" are console output that happens to read as YAML); never TOML or INI.
bool isConsoleText(std::string_view text, const ReadLimits& limits) {
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    if (isTomlLine(text.substr(pos, end - pos))) return false;
    pos = end + 1;
  }
  const auto doc = readDocument(std::string(text), limits);
  if (doc->fatal() || doc->root() == nullptr) return false;
  const Node* root = doc->root()->resolved();
  if (root->isScalar()) return !root->isNull() && root->text.find(' ') != std::string::npos;
  if (!root->isMapping() || root->entries.empty()) return false;
  return std::all_of(root->entries.begin(), root->entries.end(), [](const MapEntry& e) {
    const std::string& key = e.key->resolved()->text;
    return std::any_of(key.begin(), key.end(), [](char c) { return !(isAsciiLower(c) || isAsciiDigit(c) || c == '_'); });
  });
}

// The first 64 KiB of a text, from which its kind is recognised.
std::string_view headOf(const std::string& text) { return std::string_view(text).substr(0, 1 << 16); }

}  // namespace

InputKind recogniseInput(std::string_view head) { return systemFor(Systems{}, head).kind(); }

std::shared_ptr<const JobFiles> jobFilesOf(std::vector<Input> files) {
  auto job = std::make_shared<JobFiles>();
  const Systems systems;
  for (const Input& file : files) job->kinds.push_back(systemFor(systems, headOf(file.text)).kind());
  job->files = std::move(files);
  return job;
}

bool isLogText(std::string_view head) { return recogniseInput(head) == InputKind::Log; }

std::optional<GpuTarget> resolveGpu(const AnalyzeOptions& options, std::string* error) {
  if (options.vramGib && !(*options.vramGib > 0 && *options.vramGib < 100000)) {
    if (error) *error = "the GPU's memory (--vram) must be a positive number of GiB";
    return std::nullopt;
  }
  const auto givenBytes = [&] { return static_cast<std::uint64_t>(*options.vramGib * 1024.0 * 1024.0 * 1024.0); };
  if (options.vramGib && !options.gpu) {
    return GpuTarget{generalText(*options.vramGib) + " GiB", givenBytes()};
  }
  const GpuCatalog& gpus = knowledge().gpus;
  const std::string name = options.gpu.value_or(kDefaultGpu);
  if (const Gpu* gpu = gpus.find(name)) {
    GpuTarget target{gpu->name, gpu->linuxBytes, gpu->computeCapability, gpu->vendor, gpu->arch};
    // Both given: the card's kind from the catalog (vendor, architecture, compute capability), its memory as given.
    if (options.vramGib) {
      target.vramBytes = givenBytes();
      target.memoryGiven = true;
    }
    return target;
  }
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

std::optional<std::uint64_t> resolveRam(const AnalyzeOptions& options, std::string* error) {
  if (!options.ramGib) return std::nullopt;
  if (!(*options.ramGib > 0 && *options.ramGib < 1e6)) {
    if (error) *error = "the machine's RAM (--ram) must be a positive number of GiB";
    return std::nullopt;
  }
  return static_cast<std::uint64_t>(*options.ramGib * 1024.0 * 1024.0 * 1024.0);
}

namespace {

// An exception out of the analysis is a bug in oomlint, not a problem of the input (exit 3).
FileReport internalErrorReport(const Input& input, std::string_view what) {
  FileReport file;
  file.path = input.path;
  file.kind = InputKind::AiToolkitJob;
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
    file.kind = InputKind::AiToolkitJob;
    file.unreadable = true;
    file.diagnostics.push_back({RuleId::OL103, Severity::Error, "input limit: out of memory while analysing this input", {}, {}, {}});
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
  const Systems systems;
  const std::string_view head = headOf(input.text);
  const LogAnalysis* log = options.attachedLog ? &*options.attachedLog : nullptr;
  // The other inputs given with this one: a job can span several files.
  std::vector<Companion> companions;
  if (const JobFiles* job = options.job.get()) {
    for (std::size_t i = 0; i < job->files.size(); ++i) {
      if (job->files[i].path != input.path) companions.push_back({&job->files[i], job->kinds[i]});
    }
  }
  const SystemContext context{knowledge(), resolveGpu(options), options.gpu.has_value() || options.vramGib.has_value(),
                              log, options.limits, options.policy.suppressionsAllowed(), resolveRam(options), companions};
  const System& system = systemFor(systems, head);
  FileReport file = system.analyze(input, context);
  if (system.kind() != InputKind::AiToolkitJob || systems.aitk.recognise(head) == Recognition::Certain) return file;
  // Text that YAML cannot read, with no job keys in sight, is a log without the usual markers; so
  // is "JSON" that fails at once but reads like a log (`[2025-02-10 22:31:05,118]::[InvokeAI]…`), and
  // text YAML reads that is no config at all: it is read as a log that says what it found.
  const bool syntaxError = std::any_of(file.diagnostics.begin(), file.diagnostics.end(),
                                       [](const Diagnostic& d) { return d.code == RuleId::OL101; });
  if (syntaxError && (!looksLikeJson(head) || looksLikeLog(head))) return systems.logs.analyze(input, context);
  if (!syntaxError && !looksLikeJson(head) && isConsoleText(input.text, options.limits)) return systems.logs.analyze(input, context);
  return file;
}

}  // namespace

FileReport analyzeInput(const Input& input, const AnalyzeOptions& options) {
  FileReport file = analyzeGuarded(input, [&] { return analyzeText(input, options); });
  applyPolicy(file.diagnostics, options.policy);
  return file;
}

Report analyze(const std::vector<Input>& inputs, const AnalyzeOptions& options) {
  Report report;
  AnalyzeOptions withJob = options;
  if (inputs.size() > 1 && !withJob.job) withJob.job = jobFilesOf(inputs);
  for (const auto& input : inputs) report.add(analyzeInput(input, withJob));
  return report;
}

Report analyzeWithLog(const Input& config, const Input& log, AnalyzeOptions options) {
  Report report;
  report.add(analyzeGuarded(log, [&] {
    options.attachedLog = analyzeLog(log.text);
    return logReport(log.path, *options.attachedLog, options.policy);
  }));
  report.add(analyzeInput(config, options));
  return report;
}

FixResult fixConfig(const Input& input, const AnalyzeOptions& options) {
  FixResult result;
  result.before = analyzeInput(input, options);
  result.text = input.text;
  if (result.before.unreadable) return result;
  // The needed steps' edits as the analysis placed them: nothing is parsed or computed again.
  std::vector<Edit> edits;
  std::vector<PlanStep> steps = result.before.plan;
  // The host-RAM plan's needed steps too, unless the VRAM plan already writes that setting.
  for (const auto& step : result.before.hostPlan) {
    if (std::none_of(steps.begin(), steps.end(), [&](const PlanStep& s) { return s.needed && s.fix.path == step.fix.path; })) steps.push_back(step);
  }
  for (const auto& step : steps) {
    if (!step.needed || step.rampUp) continue;
    result.applied.push_back(step);
    if (step.fix.edits.empty()) {
      result.skipped.push_back(step.fix.unplaced.empty()
                                   ? step.fix.path.toString() + ": no place for it in this input (use a generation profile)"
                                   : step.fix.unplaced);
    }
    edits.insert(edits.end(), step.fix.edits.begin(), step.fix.edits.end());
  }
  result.text = applyEdits(std::move(result.text), std::move(edits));
  return result;
}

}  // namespace oomlint
