// `--format gcc`: the line format compilers print, which editors and CI log parsers already read:
// `file:line:col: severity: message [CODE name]`, info as `note`.
#include <string>

#include "format/formatters.h"
#include "format/summary.h"

namespace oomlint {

namespace {

const char* gccSeverity(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    default: return "note";
  }
}

}  // namespace

std::string formatGcc(const Report& report) {
  std::string out;
  for (const auto& file : report.files) {
    for (const auto& d : file.diagnostics) {
      out += file.path + ":" + std::to_string(d.range.start.line) + ":" + std::to_string(d.range.start.column) + ": " +
             gccSeverity(d.severity) + ": " + d.message + " [" + ruleLabel(d.code) + "]\n";
    }
    // The estimate has no position: a file-level note, as compilers print for a whole file.
    if (const std::string summary = estimateSummary(file); !summary.empty()) out += file.path + ": note: " + summary + "\n";
    if (const std::string host = hostSummary(file); !host.empty()) out += file.path + ": note: " + host + "\n";
  }
  if (!report.internalError.empty()) out += "oomlint: error: " + report.internalError + "\n";
  return out;
}

}  // namespace oomlint
