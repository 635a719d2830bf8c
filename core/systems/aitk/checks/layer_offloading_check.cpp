// OL416 layer-offloading-unsupported, OL417 offload-percent-without-offloading, OL418 qfloat8-becomes-float8.
#include "systems/aitk/checks/checks.h"
#include "systems/aitk/checks/util.h"

namespace oomlint {

void checkLayerOffloading(const AitkCheckContext& c, Findings& findings) {
  const TrainerProcess& p = c.process;
  const Section& m = p.model;
  // auto_memory is the deprecated spelling of layer_offloading (and its default).
  const std::string_view key = m.has("layer_offloading") || !m.has("auto_memory") ? "layer_offloading" : "auto_memory";
  const bool offloading = m.flag(key);
  if (offloading && p.arch && !p.arch->layerOffloading) {
    findings.report(RuleId::OL416, m.keyRange(key), m.pathOf(key),
                    archLabel(p) + " does not attach AI Toolkit's layer-offloading manager, so " + std::string(key) +
                        " does nothing here; use low_vram or quantization instead");
  }
  if (!offloading) {
    for (std::string_view percent : {"layer_offloading_transformer_percent", "layer_offloading_text_encoder_percent"}) {
      if (m.has(percent) && m.number(percent, 1.0) != 1.0) {
        findings.report(RuleId::OL417, m.keyRange(percent), m.pathOf(percent),
                        code(percent) + " only applies when layer_offloading is true; nothing is offloaded now");
      }
    }
    return;
  }
  const bool quantize = m.flag("quantize");
  const bool quantizeTe = m.has("quantize_te") ? m.flag("quantize_te") : quantize;
  auto bare = [&](std::string_view qkey) {
    std::string q = m.string(qkey);
    return q.substr(0, q.find('|'));
  };
  const bool transformerQ = quantize && bare("qtype") == "qfloat8";
  const bool encoderQ = quantizeTe && bare("qtype_te") == "qfloat8";
  // The swap happens in ModelConfig, whatever the architecture.
  if (transformerQ || encoderQ) {
    findings.report(RuleId::OL418, m.keyRange(key), m.pathOf(key),
                    "with layer offloading on, AI Toolkit replaces the qfloat8 quantization of the " +
                        std::string(transformerQ && encoderQ ? "transformer and text encoder"
                                                             : transformerQ ? "transformer" : "text encoder") +
                        " with torchao float8");
  }
}

}  // namespace oomlint
