// OL902 latent-for-another-model: the latent node was made for another latent format than the model's
// (an SD3 latent node feeding an SDXL model). ComfyUI resizes an empty latent's channels to the model's
// (comfy/sample.py fix_empty_latent_channels), so it runs; the graph is another model's template.
#include "systems/comfyui/checks/checks.h"

namespace oomlint {

void checkLatentForAnotherModel(const WorkflowCheckContext& c, Findings& findings) {
  for (const GraphMismatch& m : c.setup.mismatches) {
    if (!m.fails) findings.report(RuleId::OL902, m.at->range, m.at->path, m.message);
  }
}

}  // namespace oomlint
