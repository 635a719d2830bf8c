// OL805 assumed-trainer-script: no command line in the job names the script, so the estimate follows
// the GUI's checkboxes or a guess from the model arguments; said once, on the first file of the job.
#include "systems/sdscripts/checks/checks.h"

namespace oomlint {

void checkAssumedScript(const SdCheckContext& c, Findings& findings) {
  if (c.file != 0 || c.job.script == nullptr) return;
  for (const auto& f : c.job.files) {
    if (f.kind == SdFileKind::CommandLine) return;
  }
  const SdFile& file = c.current();
  const Range at = file.source ? file.source->rangeOf(0, 0) : Range{};
  findings.report(RuleId::OL805, at, {},
                  "no command line names the training script: the estimate assumes " + c.job.script->name + " (" + c.job.scriptSource +
                      "); give the command line with this file for the job as it runs");
}

}  // namespace oomlint
