// The rollback plan: config changes in the seed guide's order, each re-estimated, with the bytes
// it saves and the peak after it, until the job fits; the smallest set that fits is marked needed.
// When the job fits with room, the settings that can be added back, one at a time.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "aitk/job.h"
#include "estimate/estimate.h"
#include "text/source_text.h"

namespace oomlint {

struct PlanStep {
  int rank = 0;
  std::string path;
  std::string fromJson;
  std::string toJson;
  double savesBytes = 0;      // negative for a ramp-up step (it adds memory)
  double peakBytesAfter = 0;  // cumulative: with every earlier step applied too
  bool fitsAfter = false;
  bool needed = false;
  bool rampUp = false;
  std::string why;
  // The step written into the config text: replace `edit->range` by `edit->text` (absent when the
  // config has no section to put it in). Positions refer to the text the plan was made from.
  struct Edit {
    Range range;
    std::string text;
  };
  std::optional<Edit> edit;
};

// `failedPhase` (from a crash log) puts the levers of that phase first: sampling settings for a
// sampling OOM, quantization and low_vram for a load OOM; the guide's order otherwise.
std::vector<PlanStep> rollbackPlan(const TrainerProcess& process, const TrainingSetup& setup, const MemoryModel& model,
                                   const GpuTarget& gpu, const std::string& failedPhase = "");

}  // namespace oomlint
