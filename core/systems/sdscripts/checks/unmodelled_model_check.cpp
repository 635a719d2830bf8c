// OL808 trainer-model-not-modelled: the script is known (its arguments are checked) but the model it trains
// has no dimension sheet (rules/musubi-tuner.yaml: an empty arch), so the job gets no estimate. Said at the
// script word, so that "no problems found" never stands for "nothing was estimated".
#include "systems/sdscripts/checks/checks.h"

namespace oomlint {

void checkUnmodelledModel(const SdCheckContext& c, Findings& findings) {
  const SdFile& file = c.current();
  if (c.job.script == nullptr || c.setup.arch != nullptr || file.kind != SdFileKind::CommandLine) return;
  findings.report(RuleId::OL808, file.scriptRange, {},
                  "`" + c.job.script->name + "` trains a model oomlint has no dimensions for: its arguments are checked, "
                  "its memory is not estimated");
}

}  // namespace oomlint
