// OL703 deprecated-webui-flag: a flag the tool still takes that is a no-op now (rules/webui.yaml says why).
#include "systems/webui/checks/checks.h"

namespace oomlint {

void checkDeprecatedFlags(const WebUiCheckContext& c, Findings& findings) {
  for (const ReadFlag& f : c.setup.flags) {
    if (f.standing != FlagStanding::Honoured || f.known->deprecated.empty()) continue;
    findings.report(RuleId::OL703, f.written->range, KeyPath::of({"args"}), "`" + f.written->name + "` " + f.known->deprecated);
  }
}

}  // namespace oomlint
