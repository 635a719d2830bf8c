// OL416 layer-offloading-unsupported: layer_offloading on an architecture that does not attach the manager.
#include "systems/aitk/checks/checks.h"
#include "systems/aitk/checks/util.h"

namespace oomlint {

void checkLayerOffloadingUnsupported(const AitkCheckContext& c, Findings& findings) {
  const TrainerProcess& p = c.process;
  const Section& m = p.model;
  const std::string_view key = layerOffloadingKey(m);
  if (!m.flag(key) || p.arch == nullptr || p.arch->layerOffloading) return;
  findings.report(RuleId::OL416, m.keyRange(key), m.pathOf(key),
                  archLabel(p) + " does not attach AI Toolkit's layer-offloading manager, so " + std::string(key) +
                      " does nothing here; use low_vram or quantization instead");
}

}  // namespace oomlint
