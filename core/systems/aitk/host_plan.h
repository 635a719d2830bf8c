// The host-RAM plan: config changes that lower what the job holds in system RAM, in order of what they
// cost (speed first, quality last), each re-estimated on top of the previous ones until the host fits.
// The VRAM-trading ones (quantizing on the GPU instead of low_vram, fewer offloaded layers) are taken
// only where the VRAM estimate still fits the card. Separate from the VRAM rollback plan, whose order it
// leaves alone.
#pragma once

#include <vector>

#include "report/estimate.h"
#include "report/plan_step.h"
#include "systems/aitk/job.h"
#include "systems/aitk/setup.h"

namespace oomlint {

// Empty unless `host`'s verdict is oom or borderline.
std::vector<PlanStep> hostRamPlan(const TrainerProcess& process, const TrainingSetup& setup, const MemoryModel& model,
                                  const GpuTarget& gpu, const HostEstimate& host);

}  // namespace oomlint
