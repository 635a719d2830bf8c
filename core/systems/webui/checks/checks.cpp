#include "systems/webui/checks/checks.h"

namespace oomlint {

std::span<const WebUiCheckEntry<WebUiCheck>> webuiChecks() {
  static constexpr WebUiCheckEntry<WebUiCheck> kChecks[] = {
      {"unknown-flag", checkUnknownFlags},
      {"ignored-flag", checkIgnoredFlags},
      {"deprecated-flag", checkDeprecatedFlags},
      {"memory-mode-conflict", checkMemoryModeConflicts},
      {"fp32", checkFp32},
      {"profile", checkProfile},
      {"family", checkFamily},
  };
  return kChecks;
}

std::span<const WebUiCheckEntry<WebUiEstimateCheck>> webuiEstimateChecks() {
  static constexpr WebUiCheckEntry<WebUiEstimateCheck> kChecks[] = {
      {"slow-offload", checkSlowOffload},
      {"assumed-model", checkAssumedModel},
  };
  return kChecks;
}

}  // namespace oomlint
