// OL419 ema-version-dependent: what use_ema does depends on the AI Toolkit version.
#include "systems/aitk/checks/checks.h"

namespace oomlint {

// BaseSDTrainProcess.setup_ema() was defined in 2024 and first called in 82190b41 (2026-06-07,
// ostris/ai-toolkit#524): before, "Using EMA" was printed and nothing was kept; since, the EMA is a GPU
// clone of the trainable weights (and a second one while sampling). The estimate counts it when
// memory.yaml's ema_resident says the assumed snapshot builds it, and its range covers the older release.
void checkEmaVersion(const AitkCheckContext& c, Findings& findings) {
  const Section& t = c.process.train;
  const Node* ema = t.written("ema_config");
  if (!ema || !ema->isMapping() || !ema->find("use_ema") || !ema->find("use_ema")->truthy()) return;
  const std::string now = c.knowledge.memory.emaResident
                              ? "since 82190b41 (2026-06-07) AI Toolkit keeps an EMA copy of the trainable weights on the GPU, and a "
                                "second one while sampling"
                              : "AI Toolkit keeps no EMA copy";
  findings.report(RuleId::OL419, ema->find("use_ema")->range, t.pathOf("ema_config").key("use_ema"),
                  now + "; an AI Toolkit older than that prints \"Using EMA\" and never builds it (setup_ema() was not called, "
                        "ostris/ai-toolkit#524): its saved weights are the raw ones");
}

}  // namespace oomlint
