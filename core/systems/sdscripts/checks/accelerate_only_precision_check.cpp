// OL802 mixed-precision-only-for-accelerate: `accelerate launch --mixed_precision bf16` with no
// --mixed_precision for the script: prepare_dtype() reads only the script's own, so the frozen weights
// stay fp32.
#include "systems/sdscripts/checks/checks.h"

namespace oomlint {

void checkAccelerateOnlyPrecision(const SdCheckContext& c, Findings& findings) {
  if (!c.setup.mixedPrecision.isDefault()) return;
  for (const SdArg& arg : c.current().accelerateArgs) {
    if (arg.name != "mixed_precision" || arg.text() == "no" || arg.text().empty()) continue;
    const std::string script = c.job.script ? c.job.script->name : "the script";
    findings.report(RuleId::OL802, arg.range, KeyPath::of({"mixed_precision"}),
                    "`--mixed_precision " + arg.text() + "` is given to accelerate only: " + script +
                        " reads its own --mixed_precision (default \"no\"), so the frozen weights load in fp32, twice the memory of " +
                        arg.text() + "; give it to the script as well");
  }
}

}  // namespace oomlint
