// OL304 adapter-conflict: an accuracy-recovery adapter together with an assistant LoRA.
#include "systems/aitk/checks/checks.h"

namespace oomlint {

void checkAdapterConflict(const AitkCheckContext& c, Findings& findings) {
  const Section& m = c.process.model;
  // An adapter is named in the qtype ("uint4|path") or on its own key.
  const bool ara = m.string("qtype").find('|') != std::string::npos || !m.string("accuracy_recovery_adapter").empty();
  if (!ara || m.string("assistant_lora_path").empty()) return;
  findings.report(RuleId::OL304, m.keyRange("assistant_lora_path"), m.pathOf("assistant_lora_path"),
                  "AI Toolkit raises \"Cannot use accuracy recovery adapter and assistant lora at the same time\"; "
                  "drop the assistant LoRA or use a qtype without `|adapter`");
}

}  // namespace oomlint
