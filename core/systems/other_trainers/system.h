// The configs of trainers oomlint does not read (rules/other-trainers.yaml): recognised by their top-level keys and
// reported as such, in one finding, instead of being checked as an AI Toolkit job they are not.
#pragma once

#include "systems/system.h"

namespace oomlint {

class OtherTrainerSystem final : public System {
 public:
  InputKind kind() const override { return InputKind::OtherTrainer; }
  // Certain when a JSON or TOML text carries one of the trainers' signatures at its top level.
  Recognition recognise(std::string_view head) const override;
  FileReport analyze(const Input& input, const SystemContext& context) const override;
};

}  // namespace oomlint
