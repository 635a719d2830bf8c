// OL421 qtype-te-ignored: qtype_te is not read by this model's loader.
#include "systems/aitk/checks/checks.h"
#include "systems/aitk/checks/util.h"

namespace oomlint {

// Some loaders (FLUX.1's, Kontext's, Flex.2's, Lumina 2's, every Wan class's, FLUX.2 dev's, CogView4's, Anima's)
// quantize the text encoder with model.qtype: a qtype_te that names another type is not applied, and the
// estimate costs the encoder in qtype's type (architectures.yaml te_qtype_from_model). A qtype_te that is not a
// string is OL202's.
void checkQtypeTeIgnored(const AitkCheckContext& c, Findings& findings) {
  const Section& m = c.process.model;
  const Architecture* arch = c.process.arch;
  const Node* written = m.written("qtype_te");
  if (arch == nullptr || !arch->denoiser.teQtypeFromModel || !quantizesTextEncoder(m)) return;
  if (written == nullptr || !written->isScalar() || written->resolved()->type != ScalarType::String) return;
  const std::string qtype = qtypeFormat(m.string("qtype"));
  const std::string qtypeTe = qtypeFormat(written->resolved()->text);
  if (qtypeTe == qtype) return;
  findings.report(RuleId::OL421, m.keyRange("qtype_te"), m.pathOf("qtype_te"),
                  arch->label + "'s loader quantizes the text encoder with qtype, not qtype_te: it is " + code(qtype) +
                      ", not " + code(qtypeTe) + " (set qtype to choose it; its accuracy-recovery adapter stays the "
                      "transformer's)");
}

}  // namespace oomlint
