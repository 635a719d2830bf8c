// OL306 cannot-unload-text-encoder: unload_text_encoder on an architecture that encodes control images with it.
#include "systems/aitk/checks/checks.h"

namespace oomlint {

void checkCannotUnloadTextEncoder(const AitkCheckContext& c, Findings& findings) {
  const TrainerProcess& p = c.process;
  const Section& t = p.train;
  if (!t.flag("unload_text_encoder") || p.arch == nullptr || !p.arch->cannotUnloadTe) return;
  findings.report(RuleId::OL306, t.keyRange("unload_text_encoder"), t.pathOf("unload_text_encoder"),
                  "AI Toolkit raises \"Cannot cache unload text encoder with " + p.arch->arch +
                      " model\": its control images are encoded with the text encoder; use cache_text_embeddings");
}

}  // namespace oomlint
