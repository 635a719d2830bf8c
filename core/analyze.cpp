#include "analyze.h"

#include <algorithm>
#include <exception>

#include "aitk/checks/checks.h"
#include "aitk/job.h"
#include "document/reader.h"
#include "knowledge/knowledge.h"

namespace oomlint {

namespace {

void sortDiagnostics(std::vector<Diagnostic>& diagnostics) {
  std::stable_sort(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& a, const Diagnostic& b) {
    if (a.range.start.offset != b.range.start.offset) return a.range.start.offset < b.range.start.offset;
    return a.code < b.code;
  });
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
    findings.report("OL107", at, "",
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
  }
  file.diagnostics = std::move(findings.all());
  sortDiagnostics(file.diagnostics);
  return file;
}

}  // namespace

FileReport analyzeInput(const Input& input, const AnalyzeOptions& options) {
  try {
    return analyzeJob(input, options);
  } catch (const std::exception& error) {
    FileReport file;
    file.path = input.path;
    file.kind = "ai-toolkit-job";
    file.unreadable = true;
    file.diagnostics.push_back({"OL103", Severity::Error, std::string("analysis stopped: ") + error.what(), "", {}, {}});
    return file;
  }
}

Report analyze(const std::vector<Input>& inputs, const AnalyzeOptions& options) {
  Report report;
  const Knowledge& k = knowledge();
  if (!k.loadErrors.empty()) {
    report.internalError = "the embedded rules data is invalid: " + k.loadErrors.front();
    return report;
  }
  for (const auto& input : inputs) report.files.push_back(analyzeInput(input, options));
  return report;
}

}  // namespace oomlint
