// OL807 script-from-variables: the command runs a script whose name the wrapper builds from variables
// ("./musubi-tuner/$laungh_script.py", its arguments gathered in `$ext_args`), so neither the script nor
// its arguments can be read without running the wrapper's code: no estimate, and said where it happens.
#include "systems/sdscripts/checks/checks.h"

namespace oomlint {

void checkVariableScript(const SdCheckContext& c, Findings& findings) {
  const SdFile& file = c.current();
  if (!file.variableScript || c.job.script != nullptr) return;
  findings.report(RuleId::OL807, file.scriptRange, {},
                  "the script and its arguments are built from the wrapper's variables, which oomlint does not evaluate: "
                  "no estimate; give the command the wrapper runs (or the config file it writes) to check the job");
}

}  // namespace oomlint
