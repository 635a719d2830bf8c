#include "format/report_fields.h"

#include "format/summary.h"

namespace oomlint {

void writePhaseFigures(JsonWriter& w, const PhaseEstimate& phase) {
  w.field("name", toString(phase.phase))
      .field("peak_bytes", byteCount(phase.peakBytes))
      .field("low_bytes", byteCount(phase.lowBytes))
      .field("high_bytes", byteCount(phase.highBytes))
      .field("uncertainty_bytes", byteCount(phase.aboveBytes()));
}

void writePlanStepFigures(JsonWriter& w, const PlanStep& step) {
  w.field("rank", step.rank).field("path", step.fix.path.toString());
  w.key("from").jsonValue(step.fix.fromJson);
  w.key("to").jsonValue(step.fix.toJson);
  w.field("saves_bytes", byteCount(step.savesBytes))
      .field("peak_bytes_after", byteCount(step.peakBytesAfter))
      .field("high_bytes_after", byteCount(step.highBytesAfter))
      .field("top_only", step.topOnly)
      .field("fits_after", step.fitsAfter)
      .field("needed", step.needed);
}

}  // namespace oomlint
