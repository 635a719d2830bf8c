// OL409 qtype-without-quantize: a quantization type is set but quantization is off.
#include "systems/aitk/checks/checks.h"
#include "systems/aitk/checks/util.h"

namespace oomlint {

namespace {
// The UI writes qtype: qfloat8 (the default) or '' even when quantization is off: not a mistake.
bool isDefaultQtype(const std::string& qtype) { return qtype.empty() || qtype == "qfloat8"; }
}  // namespace

void checkQtypeWithoutQuantize(const AitkCheckContext& c, Findings& findings) {
  const Section& m = c.process.model;
  const bool quantize = m.flag("quantize");
  const bool quantizeTe = quantizesTextEncoder(m);
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
