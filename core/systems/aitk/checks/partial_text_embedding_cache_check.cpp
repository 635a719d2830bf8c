// OL305 partial-text-embedding-cache: only some datasets cache text embeddings.
#include "systems/aitk/checks/checks.h"
#include "systems/aitk/checks/util.h"

namespace oomlint {

void checkPartialTextEmbeddingCache(const AitkCheckContext& c, Findings& findings) {
  const TrainerProcess& p = c.process;
  // train.cache_text_embeddings covers every dataset.
  if (p.train.flag("cache_text_embeddings") || !anyDatasetCachesTextEmbeddings(p)) return;
  for (const auto& d : p.datasets) {
    if (d.flag("cache_text_embeddings")) continue;
    findings.report(RuleId::OL305, d.has("cache_text_embeddings") ? d.keyRange("cache_text_embeddings") : d.anchorRange(),
                    d.pathOf("cache_text_embeddings"),
                    "this dataset does not cache text embeddings while another does; AI Toolkit raises \"All datasets "
                    "must have cache_text_embeddings set to True when caching text embeddings is enabled.\" (set "
                    "train.cache_text_embeddings to cover them all)");
    return;  // the first is enough: the fix is one key for all
  }
}

}  // namespace oomlint
