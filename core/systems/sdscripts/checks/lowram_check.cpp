// OL806 lowram-loads-into-vram: --lowram loads every model straight onto the GPU (train_util.py
// _load_target_model), meant for machines with more VRAM than RAM.
#include "systems/sdscripts/checks/checks.h"

namespace oomlint {

void checkLowram(const SdCheckContext& c, Findings& findings) {
  const SdArg* lowram = c.here(c.setup.lowram.from);
  if (lowram == nullptr || !c.setup.lowram.value) return;
  findings.report(RuleId::OL806, lowram->range, lowram->path,
                  "--lowram loads the " + std::string(c.setup.arch && c.setup.arch->denoiser.blocks == 0 ? "U-Net" : "denoiser") +
                      ", text encoders and VAE straight onto the GPU (it is meant for machines with more VRAM than RAM, such as "
                      "Colab): the load phase holds them together; drop it unless system RAM is what runs out");
}

}  // namespace oomlint
