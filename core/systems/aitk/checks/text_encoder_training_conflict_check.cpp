// OL309 text-encoder-training-conflict: training the text encoder while unloading or caching it.
#include "systems/aitk/checks/checks.h"
#include "systems/aitk/checks/util.h"

namespace oomlint {

void checkTextEncoderTrainingConflict(const AitkCheckContext& c, Findings& findings) {
  const TrainerProcess& p = c.process;
  const Section& t = p.train;
  const bool unload = t.flag("unload_text_encoder");
  const bool cache = t.flag("cache_text_embeddings");
  if (!t.flag("train_text_encoder") || !(unload || cache || anyDatasetCachesTextEmbeddings(p))) return;
  findings.report(RuleId::OL309, t.keyRange("train_text_encoder"), t.pathOf("train_text_encoder"),
                  std::string("train_text_encoder needs the text encoder on the GPU, but ") +
                      (unload ? "unload_text_encoder" : "cache_text_embeddings") +
                      " removes it; AI Toolkit raises \"Cannot unload text encoder if training text encoder\"");
}

}  // namespace oomlint
