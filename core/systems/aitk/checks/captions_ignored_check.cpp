// OL411 captions-ignored: unload_text_encoder trains without the dataset captions.
#include "systems/aitk/checks/checks.h"
#include "systems/aitk/checks/util.h"

namespace oomlint {

void checkCaptionsIgnored(const AitkCheckContext& c, Findings& findings) {
  const TrainerProcess& p = c.process;
  const Section& t = p.train;
  // With cache_text_embeddings on too, OL402 says it.
  if (!t.flag("unload_text_encoder") || t.flag("cache_text_embeddings")) return;
  const bool trigger = hasTriggerWord(p);
  findings.report(RuleId::OL411, t.keyRange("unload_text_encoder"), t.pathOf("unload_text_encoder"),
                  std::string("with unload_text_encoder, AI Toolkit ignores the dataset captions and trains every image on ") +
                      (trigger ? "the trigger word" : "a blank prompt (no trigger word is set)") +
                      "; use cache_text_embeddings to keep captions and still free the text encoder",
                  trigger ? std::optional(Severity::Info) : std::nullopt);
}

}  // namespace oomlint
