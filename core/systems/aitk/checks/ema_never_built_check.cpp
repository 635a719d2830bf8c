// OL419 ema-never-built: use_ema has no effect in AI Toolkit.
#include "systems/aitk/checks/checks.h"

namespace oomlint {

// BaseSDTrainProcess.setup_ema() is defined and never called (ostris/ai-toolkit#524): the run prints
// "Using EMA" and trains without one. memory.yaml's ema_resident says the same to the estimate, so the
// rule stays silent once a version that builds the EMA is modelled.
void checkEmaNeverBuilt(const AitkCheckContext& c, Findings& findings) {
  const Section& t = c.process.train;
  const Node* ema = t.written("ema_config");
  if (!ema || !ema->isMapping() || !ema->find("use_ema") || !ema->find("use_ema")->truthy() ||
      c.knowledge.memory.emaResident) {
    return;
  }
  findings.report(RuleId::OL419, ema->find("use_ema")->range, t.pathOf("ema_config").key("use_ema"),
                  "AI Toolkit prints \"Using EMA\" but never builds the EMA (setup_ema() is not called, "
                  "ostris/ai-toolkit#524): the saved weights are the raw ones, and the EMA costs no memory");
}

}  // namespace oomlint
