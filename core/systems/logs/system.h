// The logs system: a console log (a trainer's, a generation UI's, a launcher's) scanned line by line for
// the out-of-memory failure, its phase and figures, and diagnosed against the fix order.
#pragma once

#include "policy/policy.h"
#include "systems/system.h"

namespace oomlint {

class LogSystem final : public System {
 public:
  InputKind kind() const override { return InputKind::Log; }
  // Likely when the text reads like console output (tracebacks, progress bars, loader lines) and is not JSON.
  Recognition recognise(std::string_view head) const override;
  FileReport analyze(const Input& input, const SystemContext& context) const override;
};

// The report of a log already scanned (the CLI streams large logs through a LogScanner).
FileReport logReport(std::string path, const LogAnalysis& log, const Policy& policy = {});

}  // namespace oomlint
