// OL402 unload-and-cache-text-encoder: unload_text_encoder together with cache_text_embeddings.
#include "systems/aitk/checks/checks.h"

namespace oomlint {

void checkUnloadAndCacheTextEncoder(const AitkCheckContext& c, Findings& findings) {
  const Section& t = c.process.train;
  if (!t.flag("unload_text_encoder") || !t.flag("cache_text_embeddings")) return;
  findings.report(RuleId::OL402, t.keyRange("unload_text_encoder"), t.pathOf("unload_text_encoder"),
                  "unload_text_encoder and cache_text_embeddings are both on; use one: cache_text_embeddings frees the "
                  "text encoder and keeps your captions, unload_text_encoder only parks it on the CPU and ignores them");
}

}  // namespace oomlint
