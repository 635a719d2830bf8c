// libFuzzer target: any bytes through the core's entry point (config or log, detected from content),
// then through both formatters. Build: scripts/fuzz.sh.
#include <cstddef>
#include <cstdint>
#include <string>

#include "analyze.h"
#include "format/formatters.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  oomlint::AnalyzeOptions options;
  options.vramGib = 24;  // exercise the estimate findings and the plan too
  const oomlint::Report report = oomlint::analyze({oomlint::Input{"fuzz", text}}, options);
  (void)oomlint::formatJson(report);
  (void)oomlint::formatText(report, {});
  if (!report.files.empty() && !report.files.front().plan.empty()) (void)oomlint::fixConfig({"fuzz", text}, options);
  return 0;
}
