#include "report/report.h"

namespace oomlint {

int exitCode(const Report& report, std::optional<Severity> failOn) {
  if (!report.internalError.empty()) return 3;
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

}  // namespace oomlint
