// OL207 unknown-arch, OL407 legacy-flag-conflict.
#include "systems/aitk/checks/checks.h"
#include "systems/aitk/checks/util.h"
#include "base/text/suggest.h"

namespace oomlint {

void checkArchitecture(const AitkCheckContext& c, Findings& findings) {
  const TrainerProcess& p = c.process;
  const Architectures& archs = c.knowledge.architectures;
  if (!p.archWritten.empty() && p.arch == nullptr) {
    const std::string bare = p.archWritten.substr(0, p.archWritten.find(':'));
    std::string message = code(p.archWritten) + " is not an architecture AI Toolkit knows: no model class matches it, "
                          "so it silently loads through the Stable Diffusion 1.5 path";
    std::optional<Fix> fix;
    if (auto near = closestMatch(bare, archs.names())) {
      message += "; did you mean " + code(*near) + "?";
      fix = Fix{p.model.pathOf("arch"), jsonString(p.archWritten), jsonString(*near)};
    }
    findings.report(RuleId::OL207, p.model.valueRange("arch"), p.model.pathOf("arch"), message, std::nullopt, fix);
  }
  if (p.archWritten.empty() || p.arch == nullptr) return;
  for (const auto& arch : archs.all()) {
    if (arch.legacyFlag.empty() || &arch == p.arch || !p.model.flag(arch.legacyFlag)) continue;
    if (p.arch->legacyFlag == arch.legacyFlag) continue;
    findings.report(RuleId::OL407, p.model.keyRange(arch.legacyFlag), p.model.pathOf(arch.legacyFlag),
                    code(arch.legacyFlag + ": true") + " selects " + code(arch.arch) + " but model.arch is " +
                        code(p.archWritten) + "; remove the flag and keep arch");
  }
}

}  // namespace oomlint
