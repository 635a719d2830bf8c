// libFuzzer target: any bytes through the core's entry point (config or log, detected from content),
// then through every formatter, and as a project file (.oomlint.yaml). Build: scripts/fuzz.sh.
#include <cstddef>
#include <cstdint>
#include <string>

#include "analyze.h"
#include "format/formatters.h"
#include "policy/policy.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  oomlint::AnalyzeOptions options;
  options.vramGib = 24;  // exercise the estimate findings and the plan too
  const oomlint::Report report = oomlint::analyze({oomlint::Input{"fuzz", text}}, options);
  (void)oomlint::formatJson(report);
  (void)oomlint::formatText(report, {});
  (void)oomlint::formatSarif(report);
  (void)oomlint::formatJunit(report);
  (void)oomlint::formatGithub(report);
  (void)oomlint::formatGcc(report);
  // The same bytes as a project file: its policy (suppressions allowed or not) applied to the input.
  const oomlint::ProjectConfigResult project = oomlint::parseProjectConfig(text);
  if (project.problems.empty()) {
    options.policy = project.config.policyFor("fuzz/job.yaml");
    (void)oomlint::analyze({oomlint::Input{"fuzz", text}}, options);
  }
  if (!report.files.empty() && !report.files.front().plan.empty()) (void)oomlint::fixConfig({"fuzz", text}, options);
  return 0;
}
