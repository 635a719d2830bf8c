// OL301 accumulation-conflict: gradient_accumulation above 1 while gradient_accumulation_steps is not 1.
#include "systems/aitk/checks/checks.h"
#include "systems/aitk/checks/util.h"

namespace oomlint {

void checkAccumulationConflict(const AitkCheckContext& c, Findings& findings) {
  const Section& t = c.process.train;
  if (!bothAccumulationKeys(t) || !accumulationKeysConflict(t)) return;
  findings.report(RuleId::OL301, t.keyRange("gradient_accumulation_steps"), t.pathOf("gradient_accumulation_steps"),
                  "gradient_accumulation is above 1 while gradient_accumulation_steps is not 1: AI Toolkit raises "
                  "\"gradient_accumulation and gradient_accumulation_steps are mutually exclusive\"; keep "
                  "gradient_accumulation only");
}

}  // namespace oomlint
