// The training estimate of an AI Toolkit job: per phase (load, quantize, caching, samples, the training
// step), the components resident on the GPU, from the job's setup and the memory model.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/knowledge/memory_model.h"
#include "engine/estimate_core.h"
#include "report/estimate.h"
#include "systems/aitk/setup.h"

namespace oomlint {

// `detail`: Detail::Figures for an estimate whose verdict and figures alone are read (engine/estimate_core.h).
Estimate estimate(const TrainingSetup& setup, const MemoryModel& model, const GpuTarget& gpu, Detail detail = Detail::Explained);

// The byte figures behind the components, exposed for tests and for the advisor.
double trainableParams(const TrainingSetup& s);

}  // namespace oomlint
