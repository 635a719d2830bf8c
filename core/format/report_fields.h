// The fields --format json and --format sarif (its estimates' property bag) write alike, into an object the caller
// has opened: the two contracts name a phase's and a plan step's figures the same way.
#pragma once

#include "base/text/json_writer.h"
#include "report/report.h"

namespace oomlint {

// name, peak_bytes, low_bytes, high_bytes, uncertainty_bytes
void writePhaseFigures(JsonWriter& w, const PhaseEstimate& phase);

// rank, path, from, to, saves_bytes, peak_bytes_after, high_bytes_after, top_only, fits_after, needed
void writePlanStepFigures(JsonWriter& w, const PlanStep& step);

}  // namespace oomlint
