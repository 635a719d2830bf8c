// OL301 accumulation-conflict, OL404 redundant-accumulation-keys, OL415 whole-epoch-accumulation.
#include "systems/aitk/checks/checks.h"
#include "systems/aitk/checks/util.h"

namespace oomlint {

void checkAccumulation(const AitkCheckContext& c, Findings& findings) {
  const TrainerProcess& p = c.process;
  const Section& t = p.train;
  const bool modern = t.has("gradient_accumulation");
  const bool legacy = t.has("gradient_accumulation_steps");
  if (modern && legacy) {
    const double a = t.number("gradient_accumulation", 1);
    const double b = t.number("gradient_accumulation_steps", 1);
    // AI Toolkit's test (validate_configs): gradient_accumulation > 1 and gradient_accumulation_steps != 1.
    if (a > 1 && b != 1) {
      findings.report(RuleId::OL301, t.keyRange("gradient_accumulation_steps"), t.pathOf("gradient_accumulation_steps"),
                      "gradient_accumulation is above 1 while gradient_accumulation_steps is not 1: AI Toolkit raises "
                      "\"gradient_accumulation and gradient_accumulation_steps are mutually exclusive\"; keep "
                      "gradient_accumulation only");
    } else {
      findings.report(RuleId::OL404, t.keyRange("gradient_accumulation_steps"), t.pathOf("gradient_accumulation_steps"),
                      "both gradient_accumulation and the legacy gradient_accumulation_steps are set; keep "
                      "gradient_accumulation only, so a later edit cannot make them conflict");
    }
  }
  if (legacy && t.number("gradient_accumulation_steps", 1) == -1) {
    findings.report(RuleId::OL415, t.valueRange("gradient_accumulation_steps"), t.pathOf("gradient_accumulation_steps"),
                    "gradient_accumulation_steps: -1 accumulates a whole epoch before each optimizer step, which AI "
                    "Toolkit's own comment warns can run out of memory; use gradient_accumulation with a fixed count");
  }
}

}  // namespace oomlint
