// OL415 whole-epoch-accumulation: gradient_accumulation_steps -1 accumulates a whole epoch.
#include "systems/aitk/checks/checks.h"
#include "systems/aitk/checks/util.h"

namespace oomlint {

void checkWholeEpochAccumulation(const AitkCheckContext& c, Findings& findings) {
  const Section& t = c.process.train;
  if (!t.has("gradient_accumulation_steps") || t.number("gradient_accumulation_steps", 1) != -1) return;
  findings.report(RuleId::OL415, t.valueRange("gradient_accumulation_steps"), t.pathOf("gradient_accumulation_steps"),
                  "gradient_accumulation_steps: -1 accumulates a whole epoch before each optimizer step, which AI "
                  "Toolkit's own comment warns can run out of memory; use gradient_accumulation with a fixed count");
}

}  // namespace oomlint
