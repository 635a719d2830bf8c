// The registry of AI Toolkit checks. Each rule family lives in its own file and is listed once,
// in checks.cpp; nothing else knows the list.
#pragma once

#include <span>
#include <string_view>

#include "report/findings.h"
#include "systems/aitk/job.h"

namespace oomlint {

// Keys, types, values, ranges, required and deprecated keys (OL2xx), against rules/ai-toolkit/schema.yaml.
void checkSchema(const Node* root, Findings& findings);

using TrainerCheck = void (*)(const TrainerProcess&, Findings&);

struct CheckEntry {
  std::string_view name;
  TrainerCheck run;
};

// Checks that need the typed view of one trainer process (OL3xx start-up errors, OL4xx traps).
std::span<const CheckEntry> trainerChecks();

// Checks on the job as a whole (job type requirements).
void checkJob(const JobModel& job, Findings& findings);

// The trainer checks, one family per file.
void checkArchitecture(const TrainerProcess&, Findings&);
void checkAccumulation(const TrainerProcess&, Findings&);
void checkTextEncoder(const TrainerProcess&, Findings&);
void checkPreservation(const TrainerProcess&, Findings&);
void checkModelOptions(const TrainerProcess&, Findings&);
void checkQuantization(const TrainerProcess&, Findings&);
void checkLayerOffloading(const TrainerProcess&, Findings&);
void checkDatasets(const TrainerProcess&, Findings&);
void checkFrames(const TrainerProcess&, Findings&);
void checkSampleSizes(const TrainerProcess&, Findings&);
void checkTraining(const TrainerProcess&, Findings&);

}  // namespace oomlint
