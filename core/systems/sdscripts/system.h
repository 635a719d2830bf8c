// The sd-scripts system: kohya-ss sd-scripts command lines (and FluxGym's), their --config_file and
// --dataset_config TOMLs, and the kohya_ss GUI's saved JSON; several of them given together are one job,
// each file reported with its own findings and the job's estimate (docs/sd-scripts.md).
#pragma once

#include "systems/system.h"

namespace oomlint {

class SdScriptsSystem final : public System {
 public:
  InputKind kind() const override { return InputKind::SdScripts; }
  // Certain for a TOML or GUI JSON of sd-scripts' keys; likely for a command line running one of its
  // scripts (a log quoting one is a log).
  Recognition recognise(std::string_view head) const override;
  FileReport analyze(const Input& input, const SystemContext& context) const override;
};

}  // namespace oomlint
