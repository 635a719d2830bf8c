// The one value every front end renders: what was found in each input.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/ids.h"
#include "base/knowledge/severity.h"
#include "base/rule_ids.h"
#include "base/text/source_text.h"
#include "report/estimate.h"
#include "report/log_analysis.h"
#include "report/plan_step.h"

namespace oomlint {

struct Diagnostic {
  RuleId code;
  Severity severity = Severity::Warning;
  std::string message;
  KeyPath path;  // config.process[0].train.batch_size; empty for whole-file problems
  Range range;
  std::optional<Fix> fix;  // a one-value change that resolves it
};

struct FileReport {
  std::string path;
  InputKind kind = InputKind::AiToolkitJob;
  bool unreadable = false;  // not parsable: nothing beyond the read problems was checked
  std::vector<Diagnostic> diagnostics;
  std::optional<Estimate> estimate;  // for the first trainer process whose model is known
  bool gpuGiven = false;             // the estimate is against a GPU the user chose, not the default
  std::vector<PlanStep> plan;
  // The host-RAM levers when the estimate's host verdict is not `fits` (its own ranks and needed set).
  std::vector<PlanStep> hostPlan;
  std::optional<LogAnalysis> log;    // a log input, or the log attached to a config (--log)
  std::shared_ptr<const SourceText> source;  // for snippets; not part of the JSON contract
  // Set when oomlint itself failed on this input (a bug, not the input's fault): exit code 3.
  std::string internalError;
};

struct Report {
  std::vector<FileReport> files;
  // Set when oomlint itself failed (its embedded knowledge is broken, or a bug on one input): exit code 3.
  std::string internalError;

  // Adds a file's report; a file oomlint failed on makes the whole report an internal error.
  void add(FileReport file);
};

// In reading order: by start position, then code (stable, so equal ones keep their order).
void sortDiagnostics(std::vector<Diagnostic>& diagnostics);

// Contract exit codes: 0 clean at the fail level, 1 findings at or above it, 2 unparsable input,
// 3 internal error. `failOn` empty means never fail on findings.
int exitCode(const Report& report, std::optional<Severity> failOn);
// One file's code, as if it were the whole report (the CLI holds each file to its own project's fail level).
int exitCode(const FileReport& file, std::optional<Severity> failOn);

const char* toolVersion();

}  // namespace oomlint
