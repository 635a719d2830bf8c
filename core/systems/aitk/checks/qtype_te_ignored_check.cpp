// OL421 qtype-te-ignored: qtype_te is not read by this model's loader.
#include "systems/aitk/checks/checks.h"
#include "systems/aitk/checks/util.h"

namespace oomlint {

namespace {
std::string bareQtype(const std::string& qtype) { return qtype.substr(0, qtype.find('|')); }
}  // namespace

// Some loaders (FLUX.1's, Kontext's, Flex.2's, Lumina 2's, every Wan class's, FLUX.2 dev's, CogView4's, Anima's)
// quantize the text encoder with model.qtype: a qtype_te that names another type is not applied, and the
// estimate costs the encoder in qtype's type (architectures.yaml te_qtype_from_model).
void checkQtypeTeIgnored(const AitkCheckContext& c, Findings& findings) {
  const Section& m = c.process.model;
  const Architecture* arch = c.process.arch;
  if (arch == nullptr || !arch->denoiser.teQtypeFromModel || !m.has("qtype_te") || !quantizesTextEncoder(m)) return;
  const std::string qtype = m.has("qtype") && !m.string("qtype").empty() ? bareQtype(m.string("qtype")) : "qfloat8";
  const std::string qtypeTe = bareQtype(m.string("qtype_te"));
  if (qtypeTe.empty() || qtypeTe == qtype) return;
  findings.report(RuleId::OL421, m.keyRange("qtype_te"), m.pathOf("qtype_te"),
                  arch->label + "'s loader quantizes the text encoder with qtype, not qtype_te: it is " + code(qtype) +
                      ", not " + code(qtypeTe) + " (set qtype to choose it; its accuracy-recovery adapter stays the "
                      "transformer's)");
}

}  // namespace oomlint
