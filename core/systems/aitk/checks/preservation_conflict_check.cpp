// OL307 preservation-conflict: differential output preservation together with blank prompt preservation.
#include "systems/aitk/checks/checks.h"

namespace oomlint {

void checkPreservationConflict(const AitkCheckContext& c, Findings& findings) {
  const Section& t = c.process.train;
  if (!t.flag("diff_output_preservation") || !t.flag("blank_prompt_preservation")) return;
  findings.report(RuleId::OL307, t.keyRange("blank_prompt_preservation"), t.pathOf("blank_prompt_preservation"),
                  "AI Toolkit raises \"Cannot use both differential output preservation and blank prompt preservation "
                  "at the same time\"; turn one off");
}

}  // namespace oomlint
