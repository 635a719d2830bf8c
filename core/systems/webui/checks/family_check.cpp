// OL707 model-not-supported: a model family the tool does not run (FLUX in A1111).
#include "systems/webui/checks/checks.h"

namespace oomlint {

void checkFamily(const WebUiCheckContext& c, Findings& findings) {
  const GenerationSetup& s = c.setup;
  if (!s.estimable() || s.family->runsIn(s.tool)) return;
  findings.report(RuleId::OL707, s.modelRange, KeyPath::of({"generation", "model"}),
                  std::string(displayName(s.tool)) + " does not run " + s.arch->label + " models (Forge and ComfyUI do)");
}

}  // namespace oomlint
