// OL412 auto-frame-count-batch: auto_frame_count with a batch size above 1.
#include <string>

#include "systems/aitk/checks/checks.h"

namespace oomlint {

void checkAutoFrameCountBatch(const AitkCheckContext& c, Findings& findings) {
  const TrainerProcess& p = c.process;
  for (const auto& d : p.datasets) {
    if (!d.present() || !d.flag("auto_frame_count")) continue;
    // A dataset's own batch_size overrides train.batch_size.
    const double batch = d.has("batch_size") ? d.number("batch_size", 1) : p.train.number("batch_size", 1);
    if (!(batch > 1)) continue;  // not `batch <= 1`: a NaN batch is not above 1 either
    findings.report(RuleId::OL412, d.keyRange("auto_frame_count"), d.pathOf("auto_frame_count"),
                    "auto_frame_count gives each video its own length, so videos cannot share a batch; AI Toolkit "
                    "documents it \"will not work with a batch size greater than 1\" (batch size here: " +
                        std::to_string(static_cast<long>(batch)) + ")");
  }
}

}  // namespace oomlint
