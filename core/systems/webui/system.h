// The WebUI system: AUTOMATIC1111 / Forge / ComfyUI launch lines, generation parameters and generation
// profiles, estimated as a generation (text encode, denoise, VAE decode) under the tool's memory manager.
#pragma once

#include "systems/system.h"

namespace oomlint {

class WebUiSystem final : public System {
 public:
  InputKind kind() const override { return InputKind::WebUiArgs; }
  // Certain for a generation profile (a top-level `generation:`); likely for a launch line or an
  // image's parameters block.
  Recognition recognise(std::string_view head) const override;
  FileReport analyze(const Input& input, const SystemContext& context) const override;
};

}  // namespace oomlint
