// OL312 dataset-batch-needs-buckets, OL313 mixed-bucketing, OL410 augments-disable-latent-cache,
// OL412 auto-frame-count-batch.
#include "systems/aitk/checks/checks.h"
#include "systems/aitk/checks/util.h"

namespace oomlint {

void checkDatasets(const AitkCheckContext& c, Findings& findings) {
  const TrainerProcess& p = c.process;
  const bool firstBuckets = p.datasets.empty() || p.datasets.front().flag("buckets");
  for (const auto& d : p.datasets) {
    if (!d.present()) continue;
    const bool buckets = d.flag("buckets");
    if (d.has("batch_size") && !d.written("batch_size")->isNull() && !buckets) {
      findings.report(RuleId::OL312, d.keyRange("batch_size"), d.pathOf("batch_size"),
                      "AI Toolkit raises \"Dataset level batch_size requires buckets to be enabled\": turn buckets on or "
                      "set the batch size in train.batch_size");
    }
    if (buckets != firstBuckets) {
      findings.report(RuleId::OL313, d.has("buckets") ? d.keyRange("buckets") : d.anchorRange(), d.pathOf("buckets"),
                      "this dataset " + std::string(buckets ? "uses" : "does not use") + " buckets while the first " +
                          (firstBuckets ? "does" : "does not") +
                          "; AI Toolkit asserts that all datasets use buckets or none do");
    }
    // Either spelling of augmentation turns latent caching off (toolkit/data_loader.py).
    const std::string_view augmentKey = d.written("augments") && d.written("augments")->truthy() ? "augments" : "augmentations";
    const Node* augments = d.written(augmentKey);
    if (augments && augments->truthy() && (d.flag("cache_latents") || d.flag("cache_latents_to_disk"))) {
      findings.report(RuleId::OL410, d.keyRange(augmentKey), d.pathOf(augmentKey),
                      "augments force cache_latents and cache_latents_to_disk off (\"Augments are not supported with "
                      "caching latents\"), so the VAE stays on the GPU and encodes every step");
    }
    if (d.flag("auto_frame_count")) {
      const double batch = d.has("batch_size") ? d.number("batch_size", 1) : p.train.number("batch_size", 1);
      if (batch > 1) {
        findings.report(RuleId::OL412, d.keyRange("auto_frame_count"), d.pathOf("auto_frame_count"),
                        "auto_frame_count gives each video its own length, so videos cannot share a batch; AI Toolkit "
                        "documents it \"will not work with a batch size greater than 1\" (batch size here: " +
                            std::to_string(static_cast<long>(batch)) + ")");
      }
    }
  }
}

}  // namespace oomlint
