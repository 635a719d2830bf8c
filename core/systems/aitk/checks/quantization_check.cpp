// OL409 qtype-without-quantize.
#include "systems/aitk/checks/checks.h"
#include "systems/aitk/checks/util.h"

namespace oomlint {

namespace {
// The UI writes qtype: qfloat8 (the default) or '' even when quantization is off: not a mistake.
bool isDefaultQtype(const std::string& qtype) { return qtype.empty() || qtype == "qfloat8"; }
}  // namespace

void checkQuantization(const AitkCheckContext& c, Findings& findings) {
  const TrainerProcess& p = c.process;
  const Section& m = p.model;
  const bool quantize = m.flag("quantize");
  // quantize_te defaults to the value of quantize (config_modules.py).
  const bool quantizeTe = m.has("quantize_te") ? m.flag("quantize_te") : quantize;
  if (m.has("qtype") && !quantize && !isDefaultQtype(m.string("qtype"))) {
    findings.report(RuleId::OL409, m.keyRange("qtype"), m.pathOf("qtype"),
                    "qtype " + code(m.string("qtype")) + " is set but quantize is off, so the transformer stays in " +
                        "full precision; set quantize: true or remove qtype");
  }
  if (m.has("qtype_te") && !quantizeTe && !isDefaultQtype(m.string("qtype_te"))) {
    findings.report(RuleId::OL409, m.keyRange("qtype_te"), m.pathOf("qtype_te"),
                    "qtype_te " + code(m.string("qtype_te")) + " is set but quantize_te is off, so the text encoder stays " +
                        "in full precision; set quantize_te: true or remove qtype_te");
  }
}

}  // namespace oomlint
