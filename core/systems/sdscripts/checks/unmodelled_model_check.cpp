// OL808 trainer-model-not-modelled: the script is known (its arguments are checked) but the model it trains
// has no dimension sheet (an empty arch in rules/sd-scripts.yaml or rules/musubi-tuner.yaml), so the job
// gets no estimate. Said at the script word, or at the start of the first file when no command line names
// the script, so that "no problems found" never stands for "nothing was estimated".
#include <algorithm>

#include "systems/sdscripts/checks/checks.h"

namespace oomlint {

void checkUnmodelledModel(const SdCheckContext& c, Findings& findings) {
  if (c.job.script == nullptr || c.setup.arch != nullptr) return;
  const SdFile& file = c.current();
  const bool hasCommandLine =
      std::any_of(c.job.files.begin(), c.job.files.end(), [](const SdFile& f) { return f.kind == SdFileKind::CommandLine; });
  Range at;
  if (file.kind == SdFileKind::CommandLine) at = file.scriptRange;
  else if (!hasCommandLine && c.file == 0 && file.source) at = file.source->rangeOf(0, 0);
  else return;
  findings.report(RuleId::OL808, at, {},
                  "`" + c.job.script->name + "` trains a model oomlint has no dimensions for: its arguments are checked, "
                  "its memory is not estimated");
}

}  // namespace oomlint
