// OL410 augments-disable-latent-cache: augmentations turn latent caching off.
#include "systems/aitk/checks/checks.h"

namespace oomlint {

void checkAugmentsDisableLatentCache(const AitkCheckContext& c, Findings& findings) {
  for (const auto& d : c.process.datasets) {
    if (!d.present()) continue;
    // Either spelling of augmentation turns latent caching off (toolkit/data_loader.py).
    const std::string_view augmentKey = d.written("augments") && d.written("augments")->truthy() ? "augments" : "augmentations";
    const Node* augments = d.written(augmentKey);
    if (!augments || !augments->truthy() || !(d.flag("cache_latents") || d.flag("cache_latents_to_disk"))) continue;
    findings.report(RuleId::OL410, d.keyRange(augmentKey), d.pathOf(augmentKey),
                    "augments force cache_latents and cache_latents_to_disk off (\"Augments are not supported with "
                    "caching latents\"), so the VAE stays on the GPU and encodes every step");
  }
}

}  // namespace oomlint
