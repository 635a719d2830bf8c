// OL408 model-dtype-overridden: model.dtype is overwritten by train.dtype.
#include "systems/aitk/checks/checks.h"
#include "systems/aitk/checks/util.h"
#include "systems/aitk/setup.h"

namespace oomlint {

void checkModelDtypeOverridden(const AitkCheckContext& c, Findings& findings) {
  const TrainerProcess& p = c.process;
  const Section& m = p.model;
  if (!m.has("dtype") || !m.written("dtype")->isScalar()) return;
  const std::string modelDtype = m.string("dtype");
  const std::string trainDtype = p.train.string("dtype");
  if (modelDtype.empty() || canonicalDtype(modelDtype) == canonicalDtype(trainDtype)) return;
  findings.report(RuleId::OL408, m.keyRange("dtype"), m.pathOf("dtype"),
                  "model.dtype " + code(modelDtype) + " has no effect: AI Toolkit overwrites it with train.dtype (" +
                      (p.train.has("dtype") ? code(trainDtype) : "fp32 by default") + "); set train.dtype instead");
}

}  // namespace oomlint
