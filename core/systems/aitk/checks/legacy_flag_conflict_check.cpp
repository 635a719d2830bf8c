// OL407 legacy-flag-conflict: a legacy is_* flag selects another architecture than model.arch.
#include "systems/aitk/checks/checks.h"
#include "systems/aitk/checks/util.h"

namespace oomlint {

void checkLegacyFlagConflict(const AitkCheckContext& c, Findings& findings) {
  const TrainerProcess& p = c.process;
  if (p.archWritten.empty() || p.arch == nullptr) return;
  for (const auto& arch : c.knowledge.architectures.entries()) {
    if (arch.legacyFlag.empty() || arch.arch == p.arch->arch || !p.model.flag(arch.legacyFlag)) continue;
    if (p.arch->legacyFlag == arch.legacyFlag) continue;
    findings.report(RuleId::OL407, p.model.keyRange(arch.legacyFlag), p.model.pathOf(arch.legacyFlag),
                    code(arch.legacyFlag + ": true") + " selects " + code(arch.arch) + " but model.arch is " +
                        code(p.archWritten) + "; remove the flag and keep arch");
  }
}

}  // namespace oomlint
