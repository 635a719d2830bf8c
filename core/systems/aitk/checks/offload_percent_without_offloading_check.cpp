// OL417 offload-percent-without-offloading: an offload percent is set but layer_offloading is off.
#include "systems/aitk/checks/checks.h"
#include "systems/aitk/checks/util.h"

namespace oomlint {

void checkOffloadPercentWithoutOffloading(const AitkCheckContext& c, Findings& findings) {
  const Section& m = c.process.model;
  if (m.flag(layerOffloadingKey(m))) return;
  for (std::string_view percent : {"layer_offloading_transformer_percent", "layer_offloading_text_encoder_percent"}) {
    if (m.has(percent) && m.number(percent, 1.0) != 1.0) {
      findings.report(RuleId::OL417, m.keyRange(percent), m.pathOf(percent),
                      code(percent) + " only applies when layer_offloading is true; nothing is offloaded now");
    }
  }
}

}  // namespace oomlint
