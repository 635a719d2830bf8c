#include "report/report.h"

#include <algorithm>

namespace oomlint {

void Report::add(FileReport file) {
  if (internalError.empty() && !file.internalError.empty()) internalError = file.path + ": " + file.internalError;
  files.push_back(std::move(file));
}

int exitCode(const Report& report, std::optional<Severity> failOn) {
  if (!report.internalError.empty()) return 3;
  for (const auto& file : report.files) {
    if (!file.internalError.empty()) return 3;
  }
  bool unreadable = false;
  bool failing = false;
  for (const auto& file : report.files) {
    unreadable = unreadable || file.unreadable;
    for (const auto& d : file.diagnostics) {
      failing = failing || (failOn && d.severity >= *failOn);
    }
  }
  if (unreadable) return 2;
  return failing ? 1 : 0;
}

const char* toolVersion() { return OOMLINT_VERSION; }

void sortDiagnostics(std::vector<Diagnostic>& diagnostics) {
  std::stable_sort(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& a, const Diagnostic& b) {
    if (a.range.start.offset != b.range.start.offset) return a.range.start.offset < b.range.start.offset;
    return toString(a.code) < toString(b.code);
  });
}

}  // namespace oomlint
