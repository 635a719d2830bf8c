// OL809 fused-backward-pass-needs-adafactor: train_util.get_optimizer asserts that --fused_backward_pass comes with
// optimizer_type Adafactor (compared lowercased, so a class path does not pass) and gradient_accumulation_steps 1.
#include "base/text/ascii.h"
#include "systems/sdscripts/checks/checks.h"

namespace oomlint {

void checkFusedBackwardPass(const SdCheckContext& c, Findings& findings) {
  const SdSetup& s = c.setup;
  const SdArg* fused = c.here(s.fusedBackwardPass.from);
  if (fused == nullptr || !s.fusedBackwardPass.value || s.musubi) return;
  if (lowercase(s.optimizer.value) != "adafactor") {
    findings.report(RuleId::OL809, fused->range, fused->path,
                    "fused_backward_pass with optimizer " + s.optimizer.value +
                        ": get_optimizer stops (\"fused_backward_pass currently only works with optimizer_type Adafactor\")");
  }
  if (s.gradientAccumulationSteps.value != 1) {
    findings.report(RuleId::OL809, fused->range, fused->path,
                    "fused_backward_pass with gradient_accumulation_steps " + std::to_string(s.gradientAccumulationSteps.value) +
                        ": get_optimizer stops (\"fused_backward_pass does not work with gradient_accumulation_steps > 1\")");
  }
}

}  // namespace oomlint
