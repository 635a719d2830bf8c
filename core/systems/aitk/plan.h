// The rollback plan: config changes in the seed guide's order, each re-estimated, with the bytes
// it saves and the peak after it, until the job fits; the smallest set that fits is marked needed.
// When the job fits with room, the settings that can be added back, one at a time.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/ids.h"
#include "base/knowledge/advice.h"
#include "report/plan_step.h"
#include "systems/aitk/estimate.h"
#include "systems/aitk/job.h"

namespace oomlint {

// `before` is the setup's own estimate on `gpu`. `advice` gives the resolution steps a bucket moves by.
// `failedPhase` (from a crash log) puts the levers of that phase first: sampling settings for a sampling OOM,
// quantization and low_vram for a load OOM; the guide's order otherwise.
std::vector<PlanStep> rollbackPlan(const TrainerProcess& process, const TrainingSetup& setup, const Estimate& before,
                                   const MemoryModel& model, const Advice& advice, const GpuTarget& gpu,
                                   std::optional<Phase> failedPhase = std::nullopt);

}  // namespace oomlint
