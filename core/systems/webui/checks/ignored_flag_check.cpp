// OL702 ignored-webui-flag: an A1111 memory flag given to Forge, which accepts it and does nothing.
#include "systems/webui/checks/checks.h"

namespace oomlint {

void checkIgnoredFlags(const WebUiCheckContext& c, Findings& findings) {
  for (const ReadFlag& f : c.setup.flags) {
    if (f.standing != FlagStanding::Ignored) continue;
    findings.report(RuleId::OL702, f.written->range, KeyPath::of({"args"}),
                    "`" + f.written->name + "` does nothing in " + std::string(displayName(c.setup.tool)) +
                        ": Forge removed A1111's memory flags and manages memory itself (lower GPU Weights, "
                        "or --always-low-vram / --always-offload-from-vram)");
  }
}

}  // namespace oomlint
