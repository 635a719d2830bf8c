// OL401 dtype-defaults-to-fp32: train.dtype is not set, so the model loads and trains in fp32.
#include "systems/aitk/checks/checks.h"

namespace oomlint {

void checkDtypeDefaultsToFp32(const AitkCheckContext& c, Findings& findings) {
  const TrainerProcess& p = c.process;
  const Section& t = p.train;
  if (t.has("dtype")) return;
  findings.report(RuleId::OL401, t.present() ? t.anchorRange() : p.typeRange, t.pathOf("dtype"),
                  "train.dtype is not set, so AI Toolkit trains and loads the model in fp32 (its default, forced into "
                  "model.dtype too): twice the weight and activation memory of bf16; add dtype: bf16",
                  std::nullopt, Fix{t.pathOf("dtype"), "null", "\"bf16\""});
}

}  // namespace oomlint
