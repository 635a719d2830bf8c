// OL903 vae-latent-mismatch: the VAE that decodes the samples works on other latent channels than the
// model makes (an SDXL VAE on FLUX's 16-channel latents): the decode stops with a channel error.
#include "systems/comfyui/checks/checks.h"

namespace oomlint {

void checkVaeLatentMismatch(const WorkflowCheckContext& c, Findings& findings) {
  for (const GraphMismatch& m : c.setup.mismatches) {
    if (m.fails) findings.report(RuleId::OL903, m.at->range, m.at->path, m.message);
  }
}

}  // namespace oomlint
