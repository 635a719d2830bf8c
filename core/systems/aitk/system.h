// The AI Toolkit system: a job (YAML, JSON or the UI's stored JSON) read into a document, checked
// against the schema and the trainer's rules, set up, estimated for its first trainer process whose
// model is known (jobs run their processes in turn) and planned.
#pragma once

#include <optional>
#include <utility>

#include "systems/aitk/job.h"
#include "systems/aitk/setup.h"
#include "systems/system.h"

namespace oomlint {

class AitkSystem final : public System {
 public:
  InputKind kind() const override { return InputKind::AiToolkitJob; }
  // Certain at a top-level `job:` or `config:` key (YAML or JSON); analyze.cpp reads any other text that no
  // system recognises as a job too.
  Recognition recognise(std::string_view head) const override;
  FileReport analyze(const Input& input, const SystemContext& context) const override;

  // The process the estimate is made for, with its setup: the first trainer process whose model is known
  // (jobs run their processes in turn). The CUDA harness replays this setup.
  static std::optional<std::pair<const TrainerProcess*, TrainingSetup>> estimatedProcess(const JobModel& job);
  // The same, read from an input (nullopt when it does not read as a job).
  static std::optional<TrainingSetup> estimatedSetup(const Input& input, const Knowledge& knowledge, const ReadLimits& limits);
};

}  // namespace oomlint
