// OL207 unknown-arch: model.arch names no architecture AI Toolkit knows.
#include "systems/aitk/checks/checks.h"
#include "systems/aitk/checks/util.h"
#include "base/text/suggest.h"

namespace oomlint {

void checkUnknownArch(const AitkCheckContext& c, Findings& findings) {
  const TrainerProcess& p = c.process;
  if (p.archWritten.empty() || p.arch != nullptr) return;
  const std::string bare = p.archWritten.substr(0, p.archWritten.find(':'));
  std::string message = code(p.archWritten) + " is not an architecture AI Toolkit knows: no model class matches it, "
                        "so it silently loads through the Stable Diffusion 1.5 path";
  std::optional<Fix> fix;
  if (auto near = closestMatch(bare, c.knowledge.architectures.names())) {
    message += "; did you mean " + code(*near) + "?";
    fix = Fix{p.model.pathOf("arch"), jsonString(p.archWritten), jsonString(*near)};
  }
  findings.report(RuleId::OL207, p.model.valueRange("arch"), p.model.pathOf("arch"), message, std::nullopt, fix);
}

}  // namespace oomlint
