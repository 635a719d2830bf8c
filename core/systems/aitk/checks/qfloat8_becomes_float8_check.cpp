// OL418 qfloat8-becomes-float8: with layer offloading on, qfloat8 quantization is replaced by float8.
#include "systems/aitk/checks/checks.h"
#include "systems/aitk/checks/util.h"
#include "base/knowledge/memory_model.h"

namespace oomlint {

void checkQfloat8BecomesFloat8(const AitkCheckContext& c, Findings& findings) {
  const Section& m = c.process.model;
  const std::string_view key = layerOffloadingKey(m);
  if (!m.flag(key)) return;
  auto bare = [&](std::string_view qkey) { return std::string(qtypeName(m.string(qkey))); };
  const bool transformerQ = m.flag("quantize") && bare("qtype") == "qfloat8";
  const bool encoderQ = quantizesTextEncoder(m) && bare("qtype_te") == "qfloat8";
  // The swap happens in ModelConfig, whatever the architecture.
  if (!transformerQ && !encoderQ) return;
  findings.report(RuleId::OL418, m.keyRange(key), m.pathOf(key),
                  "with layer offloading on, AI Toolkit replaces the qfloat8 quantization of the " +
                      std::string(transformerQ && encoderQ ? "transformer and text encoder"
                                                           : transformerQ ? "transformer" : "text encoder") +
                      " with torchao float8");
}

}  // namespace oomlint
