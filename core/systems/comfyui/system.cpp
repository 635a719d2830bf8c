#include "systems/comfyui/system.h"

#include "systems/comfyui/analyze_workflow.h"
#include "systems/comfyui/png_text.h"
#include "systems/comfyui/workflow.h"

namespace oomlint {

Recognition ComfyUiSystem::recognise(std::string_view head) const {
  return isPng(head) || looksLikeWorkflow(head) ? Recognition::Certain : Recognition::No;
}

FileReport ComfyUiSystem::analyze(const Input& input, const SystemContext& context) const { return analyzeWorkflow(input, context); }

}  // namespace oomlint
