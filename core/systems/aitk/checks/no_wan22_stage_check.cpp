// OL310 no-wan22-stage: Wan 2.2 14B with neither noise stage trained.
#include "systems/aitk/checks/checks.h"

namespace oomlint {

namespace {

bool explicitlyFalse(const Node* map, std::string_view key) {
  const Node* v = map ? map->find(key) : nullptr;
  return v != nullptr && v->isScalar() && !v->truthy() && !v->isNull();
}

}  // namespace

void checkNoWan22Stage(const AitkCheckContext& c, Findings& findings) {
  const TrainerProcess& p = c.process;
  if (p.arch == nullptr || (p.arch->arch != "wan22_14b" && p.arch->arch != "wan22_14b_i2v")) return;
  const Section& m = p.model;
  const Node* kwargs = m.written("model_kwargs");
  if (!explicitlyFalse(kwargs, "train_high_noise") || !explicitlyFalse(kwargs, "train_low_noise")) return;
  findings.report(RuleId::OL310, m.keyRange("model_kwargs"), m.pathOf("model_kwargs"),
                  "AI Toolkit raises \"At least one of train_high_noise or train_low_noise must be True in "
                  "model.model_kwargs\"");
}

}  // namespace oomlint
