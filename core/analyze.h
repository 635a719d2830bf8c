// The core's single entry point: inputs (text) in, a Report out. No I/O, no exceptions escape.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/document/limits.h"
#include "base/input.h"
#include "report/estimate.h"
#include "policy/policy.h"
#include "report/report.h"
#include "systems/logs/log_analysis.h"  // LogScanner: front ends stream large logs through it
#include "systems/logs/system.h"        // logReport: the report of a log so streamed

namespace oomlint {

// The inputs given in one call, which may make one job (sd-scripts' command line and its TOMLs; ComfyUI workflows
// and their launch line): read once and shared by every input's analysis, each with the kind it is recognised as.
struct JobFiles {
  std::vector<Input> files;
  std::vector<InputKind> kinds;  // of files, in order
};
std::shared_ptr<const JobFiles> jobFilesOf(std::vector<Input> files);

struct AnalyzeOptions {
  ReadLimits limits;
  std::optional<std::string> gpu;  // a catalog name ("RTX 4090"), forgiving about case and spacing
  std::optional<double> vramGib;   // or a memory size in GiB (2^30 bytes); with gpu, that card with this much memory
  std::optional<double> ramGib;    // the machine's system RAM in GiB, for the host-RAM verdict
  // A log attached to the config (--log): its phase orders the advice and its capacity is the card's.
  std::optional<LogAnalysis> attachedLog;
  // Every input given in the same call (the CLI's and analyze()'s): the files of a job that spans
  // several are read together. The one being analysed is recognised by its path.
  std::shared_ptr<const JobFiles> job;
  // The project's word on findings (.oomlint.yaml): disabled codes, severities, inline suppressions.
  Policy policy;
};

// The kind of input a text is, from its first kilobytes, as the analysis will read it (the front ends ask before
// they choose which of several opened files is the job's main one).
InputKind recogniseInput(std::string_view head);
// Whether the text is a console log (else a config), from its first kilobytes.
bool isLogText(std::string_view head);


// The GPU the estimate is made against: the one asked for, else the default (RTX 4090).
// An unknown name gives nullopt and a message with the closest catalog names.
std::optional<GpuTarget> resolveGpu(const AnalyzeOptions& options, std::string* error = nullptr);

inline constexpr const char* kDefaultGpu = "RTX 4090";

// The machine's RAM in bytes (nullopt when not given); an impossible size fills `error`.
std::optional<std::uint64_t> resolveRam(const AnalyzeOptions& options, std::string* error = nullptr);

// `oomlint fix`: the config with the plan's needed steps written in, every other byte unchanged.
struct FixResult {
  FileReport before;                 // the report the plan came from
  std::string text;                  // the edited config (the input unchanged when nothing applies)
  std::vector<PlanStep> applied;
  std::vector<std::string> skipped;  // steps that could not be written, with the reason
};
FixResult fixConfig(const Input& input, const AnalyzeOptions& options = {});

FileReport analyzeInput(const Input& input, const AnalyzeOptions& options = {});

// Runs one input's analysis so that nothing escapes: running out of memory is the input's limit (OL103,
// exit 2); any other exception is a bug in oomlint (the file's internalError, exit 3).
FileReport analyzeGuarded(const Input& input, const std::function<FileReport()>& analysis);
Report analyze(const std::vector<Input>& inputs, const AnalyzeOptions& options = {});
// A config with the log of its failed run (--log): the log's report first, then the config's, advised by it.
Report analyzeWithLog(const Input& config, const Input& log, AnalyzeOptions options = {});

}  // namespace oomlint
