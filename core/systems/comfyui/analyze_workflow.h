// The report for a ComfyUI workflow (kind "comfyui-workflow"): reading problems, the nodes the estimate
// cannot cost, nodes that do not fit together, the generation's per-stage estimate and its fix plan.
#pragma once

#include "systems/system.h"

namespace oomlint {

FileReport analyzeWorkflow(const Input& input, const SystemContext& context);

}  // namespace oomlint
