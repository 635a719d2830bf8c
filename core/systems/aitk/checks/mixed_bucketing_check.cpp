// OL313 mixed-bucketing: some datasets use buckets and some do not.
#include "systems/aitk/checks/checks.h"

namespace oomlint {

void checkMixedBucketing(const AitkCheckContext& c, Findings& findings) {
  const TrainerProcess& p = c.process;
  // Each dataset is compared with the first, as AI Toolkit's assertion does.
  const bool firstBuckets = p.datasets.empty() || p.datasets.front().flag("buckets");
  for (const auto& d : p.datasets) {
    if (!d.present()) continue;
    const bool buckets = d.flag("buckets");
    if (buckets == firstBuckets) continue;
    findings.report(RuleId::OL313, d.has("buckets") ? d.keyRange("buckets") : d.anchorRange(), d.pathOf("buckets"),
                    "this dataset " + std::string(buckets ? "uses" : "does not use") + " buckets while the first " +
                        (firstBuckets ? "does" : "does not") +
                        "; AI Toolkit asserts that all datasets use buckets or none do");
  }
}

}  // namespace oomlint
