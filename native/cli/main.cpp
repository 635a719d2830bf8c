// oomlint: the native command-line front end. It reads files, calls the core, prints what a
// formatter returns and exits with the contract's code; it decides nothing about configs itself.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string_view>
#include <variant>

#include "systems/aitk/json_schema.h"
#include "analyze.h"
#include "cli/input_files.h"
#include "cli/options.h"
#include "cli/project_files.h"
#include "format/formatters.h"
#include "base/knowledge/embedded.h"
#include "base/knowledge/knowledge.h"

namespace oomlint::cli {

namespace {

constexpr int kExitUsage = 2;

// Output goes through C stdio, not iostream, whose start-up (std::ios_base::Init and the locale it builds) was a fifth
// of `oomlint --version`'s instructions.
void printOut(std::string_view text) { std::fwrite(text.data(), 1, text.size(), stdout); }
void printErr(std::string_view text) { std::fwrite(text.data(), 1, text.size(), stderr); }

bool useColor(ColorMode mode) {
  if (mode != ColorMode::Auto) return mode == ColorMode::Always;
  const char* noColor = std::getenv("NO_COLOR");
  return isatty(STDOUT_FILENO) && (noColor == nullptr || *noColor == '\0');
}

// Options with the GPU the user named; nullopt (after saying why) when it is not in the catalog.
std::optional<AnalyzeOptions> optionsWithGpu(const std::optional<std::string>& gpu, std::optional<double> vramGib,
                                             std::optional<double> ramGib) {
  AnalyzeOptions options;
  options.gpu = gpu;
  options.vramGib = vramGib;
  options.ramGib = ramGib;
  std::string error;
  if (!resolveGpu(options, &error)) {
    printErr("oomlint: " + error + "\n");
    return std::nullopt;
  }
  return options;
}

// The analysis options for one input: the command line's, then its project file's defaults. nullopt
// (after saying why) when the project file is broken or names a GPU the catalog lacks.
struct InputSettings {
  AnalyzeOptions options;
  std::optional<Severity> failOn;
};

std::optional<InputSettings> settingsFor(const std::string& input, ProjectFiles& projects, const AnalyzeOptions& base,
                                         bool gpuGiven, const std::optional<std::optional<Severity>>& failOn) {
  // base.ramGib set means --ram was given: it beats the project file's, as --gpu does.
  auto found = projects.forInput(input);
  if (auto* error = std::get_if<std::string>(&found)) {
    printErr("oomlint: " + *error + "\n");
    return std::nullopt;
  }
  const ProjectPolicy& project = std::get<ProjectPolicy>(found);
  InputSettings settings{base, failOn.value_or(project.policy.failOn.value_or(Severity::Error))};
  settings.options.policy = project.policy;
  if (!base.ramGib && project.policy.ramGib) settings.options.ramGib = project.policy.ramGib;
  if (!gpuGiven && (project.policy.gpu || project.policy.vramGib)) {
    settings.options.gpu = project.policy.gpu;
    settings.options.vramGib = project.policy.vramGib;
    std::string error;
    if (!resolveGpu(settings.options, &error)) {
      printErr("oomlint: " + project.projectFile + ": " + error + "\n");
      return std::nullopt;
    }
  }
  return settings;
}

int runCheck(const CheckCommand& check) {
  auto resolved = optionsWithGpu(check.gpu, check.vramGib, check.ramGib);
  if (!resolved) return kExitUsage;
  const bool gpuGiven = check.gpu || check.vramGib;
  ProjectFiles projects(check.config, check.noConfig);
  Report report;
  std::vector<std::optional<Severity>> failLevels;  // per file of the report
  bool failed = false;
  auto fail = [&](const ReadFailure& failure) {
    printErr("oomlint: cannot read " + failure.path + ": " + failure.reason + "\n");
    failed = true;
  };
  auto add = [&](FileReport file, const InputSettings& settings) {
    report.add(std::move(file));
    failLevels.push_back(settings.failOn);
  };
  std::optional<LogAnalysis> attachedLog;
  if (check.log) {
    auto settings = settingsFor(*check.log, projects, *resolved, gpuGiven, check.failOn);
    auto scanned = scanLog(*check.log);
    if (!settings) {
      failed = true;
    } else if (auto* failure = std::get_if<ReadFailure>(&scanned)) {
      fail(*failure);
    } else {
      attachedLog = std::get<LogAnalysis>(scanned);
      add(logReport(*check.log, *attachedLog, settings->options.policy), *settings);
    }
  }
  // Each input read once: a log scanned whole, a config kept. Several configs given together may be one job
  // (sd-scripts' command line, config and dataset TOMLs; ComfyUI workflows and their launch line): each analysis sees
  // the others.
  std::vector<std::variant<Input, LogAnalysis, ReadFailure>> reads;
  std::vector<Input> jobFiles;
  for (const auto& path : check.inputs) {
    reads.push_back(readConfigOrLog(path, resolved->limits.maxBytes));
    if (const Input* input = std::get_if<Input>(&reads.back()); input != nullptr && check.inputs.size() > 1) jobFiles.push_back(*input);
  }
  const std::shared_ptr<const JobFiles> job = jobFiles.empty() ? nullptr : jobFilesOf(std::move(jobFiles));
  for (std::size_t i = 0; i < check.inputs.size(); ++i) {
    const std::string& path = check.inputs[i];
    auto settings = settingsFor(path, projects, *resolved, gpuGiven, check.failOn);
    if (!settings) {
      failed = true;
      continue;
    }
    settings->options.attachedLog = attachedLog;
    settings->options.job = job;
    if (const auto* failure = std::get_if<ReadFailure>(&reads[i])) {
      fail(*failure);
    } else if (const auto* log = std::get_if<LogAnalysis>(&reads[i])) {
      add(logReport(path, *log, settings->options.policy), *settings);
    } else {
      add(analyzeInput(std::get<Input>(reads[i]), settings->options), *settings);
    }
  }
  switch (check.format) {
    case Format::Json: printOut(formatJson(report)); break;
    case Format::Gcc: printOut(formatGcc(report)); break;
    case Format::Github: printOut(formatGithub(report)); break;
    case Format::Sarif: printOut(formatSarif(report)); break;
    case Format::Junit: printOut(formatJunit(report)); break;
    case Format::Text:
      // Nothing read: the errors above are the whole answer, not "no problems found in 0 files".
      if (!report.files.empty() || !failed) printOut(formatText(report, TextStyle{useColor(check.color)}));
      break;
  }
  std::fflush(stdout);
  // Each file against its own project's fail level; the worst outcome is the exit code.
  int code = 0;
  for (std::size_t i = 0; i < report.files.size(); ++i) code = std::max(code, exitCode(report.files[i], failLevels[i]));
  return failed ? std::max(code, kExitUsage) : code;
}

int runFix(const FixCommand& fix) {
  auto resolved = optionsWithGpu(fix.gpu, fix.vramGib, fix.ramGib);
  if (!resolved) return kExitUsage;
  ProjectFiles projects(fix.config, fix.noConfig);
  auto settings = settingsFor(fix.input, projects, *resolved, fix.gpu || fix.vramGib, std::nullopt);
  if (!settings) return kExitUsage;
  AnalyzeOptions options = settings->options;
  auto read = readInput(fix.input, options.limits.maxBytes);
  // The rest of the job (OTHER…): read with it, never written.
  std::vector<Input> jobFiles;
  if (!fix.jobFiles.empty() && std::holds_alternative<Input>(read)) jobFiles.push_back(std::get<Input>(read));
  for (const auto& path : fix.jobFiles) {
    auto other = readInput(path, options.limits.maxBytes);
    if (auto* failure = std::get_if<ReadFailure>(&other)) {
      printErr("oomlint: cannot read " + failure->path + ": " + failure->reason + "\n");
      return kExitUsage;
    }
    jobFiles.push_back(std::get<Input>(std::move(other)));
  }
  if (!jobFiles.empty()) options.job = jobFilesOf(std::move(jobFiles));
  if (auto* failure = std::get_if<ReadFailure>(&read)) {
    printErr("oomlint: cannot read " + failure->path + ": " + failure->reason + "\n");
    return kExitUsage;
  }
  const FixResult result = fixConfig(std::get<Input>(read), options);
  if (result.before.unreadable) {
    Report report;
    report.add(result.before);
    printErr(formatText(report, TextStyle{false}));
    return exitCode(report, std::nullopt);  // 2 for the input, 3 for a bug in oomlint
  }
  // What changed goes to stderr, so stdout can carry the config itself.
  if (result.applied.empty()) {
    const auto& e = result.before.estimate;
    const bool hostShort = e && e->host && e->host->verdict && *e->host->verdict != Verdict::Fits;
    printErr(std::string("oomlint: nothing to change: ") +
             (!e ? "no estimate for this config"
                 : hostShort ? "no config change brings it within the machine's RAM (oomlint check says how much swap or page file it needs)"
                             : "the job is estimated to fit") +
             "\n");
  }
  for (const auto& step : result.applied) {
    printErr("oomlint: set " + step.fix.path.toString() + ": " + step.fix.fromJson + " → " + step.fix.toJson + " (saves " +
             formatGiB(step.savesBytes) + ")\n");
  }
  for (const auto& skipped : result.skipped) printErr("oomlint: not applied: " + skipped + "\n");
  const std::string target = fix.inPlace ? fix.input : fix.output.value_or("");
  if (target.empty()) {
    printOut(result.text);
    return 0;
  }
  std::FILE* out = std::fopen(target.c_str(), "wb");
  const bool written = out != nullptr && std::fwrite(result.text.data(), 1, result.text.size(), out) == result.text.size();
  if (out == nullptr || std::fclose(out) != 0 || !written) {
    printErr("oomlint: cannot write " + target + "\n");
    return kExitUsage;
  }
  return 0;
}

int runExplain(const ExplainCommand& explain) {
  const RuleInfo* rule = knowledge().catalog.find(explain.code);
  if (rule == nullptr) {
    printErr("oomlint: no rule '" + explain.code + "' (oomlint rules lists them)\n");
    return kExitUsage;
  }
  if (const std::string_view page = rulePage(rule->code); !page.empty()) {
    printOut(page);
  } else {
    printOut("# " + rule->code + " " + rule->name + "\n\n" + rule->title + "\n\n" + rule->summary + "\n");
  }
  return 0;
}

int runRules() {
  for (const auto& rule : knowledge().catalog.rules()) {
    std::printf("%-6s %-36s %-8s %s\n", std::string(rule.code).c_str(), std::string(rule.name).c_str(), std::string(toString(rule.severity)).c_str(),
                std::string(rule.title).c_str());
  }
  return 0;
}

int runSchema() {
  printOut(jobJsonSchema());
  return 0;
}

int runGpus() {
  for (const auto& gpu : knowledge().gpus.all()) {
    std::printf("%-26s %-7s %-12s %6.2f GiB (Linux)%s\n", std::string(gpu.name).c_str(), std::string(gpu.vendor).c_str(), std::string(gpu.gpuClass).c_str(),
                static_cast<double>(gpu.linuxBytes) / (1024.0 * 1024.0 * 1024.0), gpu.name == kDefaultGpu ? "  (default)" : "");
  }
  return 0;
}

int run(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  ParseResult parsed = parseArguments(args);
  if (!parsed.command) {
    printErr("oomlint: " + parsed.error + "\n" + kUsage);
    return kExitUsage;
  }
  return std::visit(
      [](const auto& command) -> int {
        using T = std::decay_t<decltype(command)>;
        if constexpr (std::is_same_v<T, CheckCommand>) return runCheck(command);
        if constexpr (std::is_same_v<T, FixCommand>) return runFix(command);
        if constexpr (std::is_same_v<T, ExplainCommand>) return runExplain(command);
        if constexpr (std::is_same_v<T, RulesCommand>) return runRules();
        if constexpr (std::is_same_v<T, GpusCommand>) return runGpus();
        if constexpr (std::is_same_v<T, SchemaCommand>) return runSchema();
        if constexpr (std::is_same_v<T, VersionCommand>) {
          printOut(std::string("oomlint ") + toolVersion() + "\n");
          return 0;
        }
        printOut(kUsage);
        return 0;
      },
      *parsed.command);
}

}  // namespace
}  // namespace oomlint::cli

int main(int argc, char** argv) {
  int code = 3;
  try {
    code = oomlint::cli::run(argc, argv);
  } catch (const std::exception& error) {
    oomlint::cli::printErr(std::string("oomlint: internal error (a bug in oomlint; please report it): ") + error.what() + "\n");
  }
#if defined(__SANITIZE_ADDRESS__)
  return code;  // LeakSanitizer checks at a normal exit
#else
  // The knowledge and the analysis are thousands of small objects, and the system takes the process's memory back
  // at once: freeing them one by one at exit was 7 % of a check's instructions. Output is flushed first.
  std::fflush(nullptr);
  std::_Exit(code);
#endif
}
