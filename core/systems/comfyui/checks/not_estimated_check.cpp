// OL904 workflow-not-estimated: nothing to estimate, or no memory model for what it runs: no sampler
// runs, the model's family has no memory model yet, or its file name names no family oomlint knows.
#include "systems/comfyui/checks/checks.h"

namespace oomlint {

void checkNotEstimated(const WorkflowCheckContext& c, Findings& findings) {
  const WorkflowSetup& s = c.setup;
  if (s.estimable() || c.workflow.nodes.empty()) return;
  if (s.sampler == nullptr) {
    const WorkflowNode& first = c.workflow.nodes.front();
    findings.report(RuleId::OL904, first.range, first.path, "no sampler runs in this workflow (no KSampler or SamplerCustom node): there is no generation to estimate");
    return;
  }
  const WorkflowNode* at = s.model ? s.model : s.sampler;
  const std::string name = s.modelName ? "`" + s.modelName->value->resolved()->text + "`" : "the model";
  const std::string why = !s.unmodelledFamily.empty() ? s.unmodelledFamily + " (" + name + ") has no memory model in oomlint yet"
                          : s.model == nullptr     ? "no model loader feeds the sampler"
                                                   : name + " names no model family oomlint knows";
  findings.report(RuleId::OL904, at->range, at->path, why + ": the workflow is read, but its memory is not estimated");
}

}  // namespace oomlint
