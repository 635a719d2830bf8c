// OL404 redundant-accumulation-keys: both accumulation keys written, not (yet) in conflict.
#include "systems/aitk/checks/checks.h"
#include "systems/aitk/checks/util.h"

namespace oomlint {

void checkRedundantAccumulationKeys(const AitkCheckContext& c, Findings& findings) {
  const Section& t = c.process.train;
  if (!bothAccumulationKeys(t) || accumulationKeysConflict(t)) return;  // a conflict is OL301's
  findings.report(RuleId::OL404, t.keyRange("gradient_accumulation_steps"), t.pathOf("gradient_accumulation_steps"),
                  "both gradient_accumulation and the legacy gradient_accumulation_steps are set; keep "
                  "gradient_accumulation only, so a later edit cannot make them conflict");
}

}  // namespace oomlint
