#include "report/report.h"

#include <algorithm>

namespace oomlint {

void Report::add(FileReport file) {
  if (internalError.empty() && !file.internalError.empty()) internalError = file.path + ": " + file.internalError;
  files.push_back(std::move(file));
}

int exitCode(const FileReport& file, std::optional<Severity> failOn) {
  if (!file.internalError.empty()) return 3;
  if (file.unreadable) return 2;
  const bool failing = failOn && std::any_of(file.diagnostics.begin(), file.diagnostics.end(),
                                             [&](const Diagnostic& d) { return d.severity >= *failOn; });
  return failing ? 1 : 0;
}

int exitCode(const Report& report, std::optional<Severity> failOn) {
  int code = report.internalError.empty() ? 0 : 3;
  for (const auto& file : report.files) code = std::max(code, exitCode(file, failOn));
  return code;
}

const char* toolVersion() { return OOMLINT_VERSION; }

void sortDiagnostics(std::vector<Diagnostic>& diagnostics) {
  std::stable_sort(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& a, const Diagnostic& b) {
    if (a.range.start.offset != b.range.start.offset) return a.range.start.offset < b.range.start.offset;
    return toString(a.code) < toString(b.code);
  });
}

}  // namespace oomlint
