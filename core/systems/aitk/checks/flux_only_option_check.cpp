// OL302 flux-only-option: an option AI Toolkit supports only with FLUX models.
#include "systems/aitk/checks/checks.h"
#include "systems/aitk/checks/util.h"

namespace oomlint {

void checkFluxOnlyOption(const AitkCheckContext& c, Findings& findings) {
  const TrainerProcess& p = c.process;
  if (p.arch == nullptr || p.arch->fluxFamily) return;
  const Section& m = p.model;
  for (std::string_view key : {"attn_masking", "split_model_over_gpus"}) {
    // Wan raises on split_model_over_gpus itself (OL311).
    if (!m.flag(key) || (p.arch->wanFamily && key == "split_model_over_gpus")) continue;
    findings.report(RuleId::OL302, m.keyRange(key), m.pathOf(key),
                    "AI Toolkit raises \"" + std::string(key) + " is only supported with flux models currently\" (this "
                    "model is " + archLabel(p) + ")");
  }
  if (const Node* decorator = p.process.written("decorator"); decorator && !decorator->isNull()) {
    findings.report(RuleId::OL302, p.process.keyRange("decorator"), p.process.pathOf("decorator"),
                    "AI Toolkit raises \"Decorators are only supported for Flux models currently\" (this model is " +
                        archLabel(p) + ")");
  }
}

}  // namespace oomlint
