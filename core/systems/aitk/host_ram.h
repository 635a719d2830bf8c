// The host-RAM estimate of an AI Toolkit job, beside the VRAM one: per phase, what the trainer process
// and the machine around it hold in system RAM (the model as loaded and as quantized, modules parked on
// the CPU, layer offloading's pinned weights, the data loader's workers), from the job's setup and the
// memory model (rules/memory.yaml host_ram). docs/estimate.md "Host RAM" cites the trainer's source.
#pragma once

#include <cstdint>
#include <optional>

#include "base/knowledge/memory_model.h"
#include "report/estimate.h"
#include "systems/aitk/setup.h"

namespace oomlint {

// `ramBytes`: the machine's RAM when given (else the verdict is unknown); `logKilled`: the attached log's
// run was killed for host RAM (the verdict is oom whatever the figures say).
HostEstimate hostRamEstimate(const TrainingSetup& setup, const MemoryModel& model, std::optional<std::uint64_t> ramBytes,
                             bool logKilled = false);

}  // namespace oomlint
