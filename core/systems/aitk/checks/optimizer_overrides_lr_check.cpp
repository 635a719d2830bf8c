// OL414 optimizer-overrides-lr: an adaptive optimizer replaces a learning rate below 0.1 with 1.0.
#include "systems/aitk/checks/checks.h"
#include "systems/aitk/checks/util.h"

namespace oomlint {

void checkOptimizerOverridesLr(const AitkCheckContext& c, Findings& findings) {
  const Section& t = c.process.train;
  const std::string optimizer = lowercase(t.string("optimizer"));
  if (!(optimizer.starts_with("prodigy") || optimizer.starts_with("dadaptation")) || !(t.number("lr", 1e-6) < 0.1)) return;
  findings.report(RuleId::OL414, t.has("lr") ? t.valueRange("lr") : t.valueRange("optimizer"), t.pathOf("lr"),
                  code(t.string("optimizer")) + " adapts the step size itself and AI Toolkit sets an lr below 0.1 to "
                  "1.0; write lr: 1.0 to say what runs");
}

}  // namespace oomlint
