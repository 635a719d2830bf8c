// OL312 dataset-batch-needs-buckets: a per-dataset batch_size with bucketing turned off.
#include "systems/aitk/checks/checks.h"

namespace oomlint {

void checkDatasetBatchNeedsBuckets(const AitkCheckContext& c, Findings& findings) {
  for (const auto& d : c.process.datasets) {
    if (!d.present() || !d.has("batch_size") || d.written("batch_size")->isNull() || d.flag("buckets")) continue;
    findings.report(RuleId::OL312, d.keyRange("batch_size"), d.pathOf("batch_size"),
                    "AI Toolkit raises \"Dataset level batch_size requires buckets to be enabled\": turn buckets on or "
                    "set the batch size in train.batch_size");
  }
}

}  // namespace oomlint
