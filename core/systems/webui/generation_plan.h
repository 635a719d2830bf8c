// The fix order for a generation that does not fit, cheapest first (wl §8): attention optimisation,
// fp16 instead of fp32, medvram, batch cond/uncond off, tiled VAE, batch 1, ControlNet Low VRAM,
// lowvram — each re-estimated, with the memory it saves and its speed cost, written back into the input
// (a flag in the launch line, a key in the generation profile) where the input has a place for it.
#pragma once

#include <vector>

#include "report/plan_step.h"
#include "systems/webui/generation_estimate.h"
#include "systems/webui/webui_input.h"

namespace oomlint {

std::vector<PlanStep> generationPlan(const WebUiInput& input, const GenerationSetup& setup, const GpuTarget& gpu,
                                     const WebUiKnowledge& webui, const MemoryModel& memory);

}  // namespace oomlint
