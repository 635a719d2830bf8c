// OL308 preservation-requirements: a preservation loss without the trigger word or network it needs.
#include "systems/aitk/checks/checks.h"

namespace oomlint {

void checkPreservationRequirements(const AitkCheckContext& c, Findings& findings) {
  const TrainerProcess& p = c.process;
  const Section& t = p.train;
  const bool dop = t.flag("diff_output_preservation");
  const bool bpp = t.flag("blank_prompt_preservation");
  const bool network = p.network.present();
  auto need = [&](std::string_view key, const std::string& what) {
    findings.report(RuleId::OL308, t.keyRange(key), t.pathOf(key), what);
  };
  if (dop && p.process.string("trigger_word").empty()) {
    need("diff_output_preservation", "AI Toolkit raises \"diff_output_preservation requires a trigger_word to be set\": "
                                     "set the process's trigger_word");
  }
  if (dop && !network) {
    need("diff_output_preservation", "AI Toolkit raises \"diff_output_preservation requires a network to be set\": "
                                     "it trains a LoRA/LoKr, so add a network section");
  }
  if (dop && t.flag("train_text_encoder")) {
    need("diff_output_preservation", "AI Toolkit raises \"diff_output_preservation is not supported with train_text_encoder\"");
  }
  if (bpp && !network) {
    need("blank_prompt_preservation", "AI Toolkit raises \"blank_prompt_preservation requires a network to be set\"");
  }
}

}  // namespace oomlint
