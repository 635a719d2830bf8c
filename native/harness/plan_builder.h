// Builds the harness's replay plan from the core's analysis of a config: the estimate says which
// components each phase holds and their bytes; the training setup and the architecture's dimensions
// give the shapes of the work. Pure C++: the unit tests exercise it without a GPU.
#pragma once

#include <optional>
#include <string>

#include "analyze.h"
#include "systems/aitk/setup.h"
#include "base/knowledge/memory_model.h"
#include "replay_plan.h"

namespace oomlint::harness {

// The core's report for a config and the settings of the process it estimated.
struct PlanInput {
  FileReport report;
  std::optional<TrainingSetup> setup;  // empty when nothing was estimated (unknown model, unreadable)
};

PlanInput analyzeForReplay(const Input& input, const AnalyzeOptions& options = {});

// nullopt (with the reason in `why`) when the config has no estimate.
std::optional<ReplayPlan> buildReplayPlan(const PlanInput& input, const MemoryModel& model, std::string* why = nullptr);
ReplayPlan buildReplayPlan(const std::string& config, const Estimate& estimate, const TrainingSetup& setup,
                           const MemoryModel& model);

// The phases' expected outcomes on a card capped at `capGib` GiB.
CapPlan capPlan(const ReplayPlan& plan, double capGib);

}  // namespace oomlint::harness
