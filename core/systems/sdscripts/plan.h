// The rollback plan of an sd-scripts job, in the guide's order with sd-scripts' own levers: gradient
// checkpointing → batch 1 → a smaller resolution → its low-memory switches, cheapest in quality first
// (cache latents, cache the text encoders' outputs, an 8-bit optimizer, fp8 weights, then blocks_to_swap
// as few as fit). Each step is one argument's new value; where it is written is placed by the system.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/knowledge/advice.h"
#include "base/knowledge/memory_model.h"
#include "report/estimate.h"
#include "report/plan_step.h"
#include "systems/sdscripts/setup.h"

namespace oomlint {

// What a step changes: an argument (by name), or a value of the dataset TOML.
struct SdChange {
  std::string arg;                     // "gradient_checkpointing"; empty for a dataset value
  std::optional<SdDatasetValue> dataset;  // a dataset TOML value (the node it is written at)
  std::string cliValue;                // the value as a command line writes it; empty for a bare flag
};

struct SdPlan {
  std::vector<PlanStep> steps;
  std::vector<SdChange> changes;  // one per step
};

// `before` is the setup's own estimate on `gpu`.
SdPlan sdRollbackPlan(const SdSetup& setup, const Estimate& before, const MemoryModel& model, const Advice& advice,
                      const GpuTarget& gpu);

}  // namespace oomlint
