// libFuzzer target: the bytes as a JSON job config (what AI Toolkit's web UI stores), through the whole
// pipeline, the JSON and SARIF renderers and `oomlint fix` (whose edits in JSON differ from YAML's).
// Content is routed by its first significant character, so bytes that would not open a JSON value
// get a `{` in front: every input reaches the strict JSON reader. scripts/fuzz.sh config_json [SECONDS].
// fuzz-seeds: json
#include <cstddef>
#include <cstdint>
#include <string>

#include "analyze.h"
#include "base/document/reader.h"
#include "format/formatters.h"
#include "fuzz_support.h"

using namespace oomlint;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  if (!looksLikeJson(text)) text.insert(0, "{");
  AnalyzeOptions options;
  if (size % 2 == 0) options.vramGib = 24; else options.gpu = "RTX 3060 12GB";
  const Input input{"fuzz/job.json", text};
  const Report report = analyze({input}, options);
  fuzz::checkReport(report);
  fuzz::require(!formatJson(report).empty(), "formatJson returned nothing");
  (void)formatSarif(report);
  (void)formatText(report, {});
  if (!report.files.empty() && !report.files.front().plan.empty()) fuzz::checkFix(input, options);
  return 0;
}
