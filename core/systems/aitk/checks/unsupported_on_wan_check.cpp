// OL311 unsupported-on-wan: an option the Wan models raise on at load.
#include "systems/aitk/checks/checks.h"
#include "systems/aitk/checks/util.h"

namespace oomlint {

void checkUnsupportedOnWan(const AitkCheckContext& c, Findings& findings) {
  const TrainerProcess& p = c.process;
  if (p.arch == nullptr || !p.arch->wanFamily) return;
  const Section& m = p.model;
  for (std::string_view key : {"assistant_lora_path", "lora_path"}) {
    if (m.string(key).empty()) continue;
    findings.report(RuleId::OL311, m.keyRange(key), m.pathOf(key),
                    code(key) + " is not supported by the Wan models; AI Toolkit raises at load");
  }
  if (m.flag("split_model_over_gpus")) {
    findings.report(RuleId::OL311, m.keyRange("split_model_over_gpus"), m.pathOf("split_model_over_gpus"),
                    "split_model_over_gpus is not supported by the Wan models; AI Toolkit raises at load");
  }
}

}  // namespace oomlint
