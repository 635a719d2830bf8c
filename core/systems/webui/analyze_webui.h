// The report for a WebUI input (kind "webui-args"): flag and setting findings, the generation's
// per-phase estimate against the GPU, and the fix plan.
#pragma once

#include <optional>

#include "base/input.h"
#include "report/estimate.h"
#include "report/report.h"
#include "systems/system.h"

namespace oomlint {

FileReport analyzeWebUi(const Input& input, const SystemContext& context);

}  // namespace oomlint
