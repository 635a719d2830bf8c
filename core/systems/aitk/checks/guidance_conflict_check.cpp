// OL303 guidance-conflict: bypass_guidance_embedding together with do_guidance_loss.
#include "systems/aitk/checks/checks.h"

namespace oomlint {

void checkGuidanceConflict(const AitkCheckContext& c, Findings& findings) {
  const Section& t = c.process.train;
  if (!t.flag("bypass_guidance_embedding") || !t.flag("do_guidance_loss")) return;
  findings.report(RuleId::OL303, t.keyRange("do_guidance_loss"), t.pathOf("do_guidance_loss"),
                  "AI Toolkit raises \"Cannot bypass guidance embedding and do guidance loss at the same time\"; set "
                  "bypass_guidance_embedding or do_guidance_loss to false");
}

}  // namespace oomlint
