// OL706 generation-setting, as information: nothing named the model, so the estimate is for A1111's
// default (SD1.5); said only where an estimate is shown.
#include "systems/webui/checks/checks.h"

namespace oomlint {

void checkAssumedModel(const WebUiEstimateContext& c, Findings& findings) {
  const GenerationSetup& s = c.setup;
  if (!s.familyAssumed) return;
  findings.report(RuleId::OL706, c.input.flags.empty() ? Range{} : c.input.flags.front().range, KeyPath::of({"generation", "model"}),
                  "no model named: estimated for A1111's default, SD1.5 at " + std::to_string(s.width) + "×" +
                      std::to_string(s.height) + " (a generation profile or the image's parameters say more)",
                  Severity::Info);
}

}  // namespace oomlint
