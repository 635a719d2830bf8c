// OL305 partial-text-embedding-cache, OL306 cannot-unload-text-encoder,
// OL309 text-encoder-training-conflict, OL402 unload-and-cache-text-encoder, OL411 captions-ignored.
#include "systems/aitk/checks/checks.h"
#include "systems/aitk/checks/util.h"

namespace oomlint {

void checkTextEncoder(const AitkCheckContext& c, Findings& findings) {
  const TrainerProcess& p = c.process;
  const Section& t = p.train;
  const bool unload = t.flag("unload_text_encoder");
  const bool cache = t.flag("cache_text_embeddings");
  const bool anyDatasetCaches =
      std::any_of(p.datasets.begin(), p.datasets.end(), [](const Section& d) { return d.flag("cache_text_embeddings"); });

  if (unload && cache) {
    findings.report(RuleId::OL402, t.keyRange("unload_text_encoder"), t.pathOf("unload_text_encoder"),
                    "unload_text_encoder and cache_text_embeddings are both on; use one: cache_text_embeddings frees the "
                    "text encoder and keeps your captions, unload_text_encoder only parks it on the CPU and ignores them");
  } else if (unload) {
    const bool trigger = hasTriggerWord(p);
    findings.report(RuleId::OL411, t.keyRange("unload_text_encoder"), t.pathOf("unload_text_encoder"),
                    std::string("with unload_text_encoder, AI Toolkit ignores the dataset captions and trains every image on ") +
                        (trigger ? "the trigger word" : "a blank prompt (no trigger word is set)") +
                        "; use cache_text_embeddings to keep captions and still free the text encoder",
                    trigger ? std::optional(Severity::Info) : std::nullopt);
  }
  if (unload && p.arch && p.arch->cannotUnloadTe) {
    findings.report(RuleId::OL306, t.keyRange("unload_text_encoder"), t.pathOf("unload_text_encoder"),
                    "AI Toolkit raises \"Cannot cache unload text encoder with " + p.arch->arch +
                        " model\": its control images are encoded with the text encoder; use cache_text_embeddings");
  }
  if (t.flag("train_text_encoder") && (unload || cache || anyDatasetCaches)) {
    findings.report(RuleId::OL309, t.keyRange("train_text_encoder"), t.pathOf("train_text_encoder"),
                    std::string("train_text_encoder needs the text encoder on the GPU, but ") +
                        (unload ? "unload_text_encoder" : "cache_text_embeddings") +
                        " removes it; AI Toolkit raises \"Cannot unload text encoder if training text encoder\"");
  }
  if (!cache && anyDatasetCaches) {
    for (const auto& d : p.datasets) {
      if (d.flag("cache_text_embeddings")) continue;
      findings.report(RuleId::OL305, d.has("cache_text_embeddings") ? d.keyRange("cache_text_embeddings") : d.anchorRange(),
                      d.pathOf("cache_text_embeddings"),
                      "this dataset does not cache text embeddings while another does; AI Toolkit raises \"All datasets "
                      "must have cache_text_embeddings set to True when caching text embeddings is enabled.\" (set "
                      "train.cache_text_embeddings to cover them all)");
      break;
    }
  }
}

}  // namespace oomlint
