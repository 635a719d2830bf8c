// The ComfyUI workflow system: a workflow (API, wrapped API or UI JSON, or the PNG that carries one),
// estimated stage by stage under ComfyUI's memory manager (webui/generation_estimate), with findings at
// the nodes and a fix order of ComfyUI's own levers written back into the workflow's values.
#pragma once

#include "systems/system.h"

namespace oomlint {

class ComfyUiSystem final : public System {
 public:
  InputKind kind() const override { return InputKind::ComfyUiWorkflow; }
  // Certain for a PNG and for JSON with a workflow's markers (`class_type`, or `nodes` with `links`).
  Recognition recognise(std::string_view head) const override;
  FileReport analyze(const Input& input, const SystemContext& context) const override;
};

}  // namespace oomlint
