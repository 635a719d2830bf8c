// What the device side reports back: plain data, filled by the CUDA sources and rendered by report.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "replay_plan.h"

namespace oomlint::harness {

// The card and the fixed costs of using it, measured once per process from free-memory deltas.
struct DeviceFacts {
  std::string name;
  int computeMajor = 0, computeMinor = 0;
  int driverVersion = 0, runtimeVersion = 0, cublasVersion = 0;
  std::uint64_t totalBytes = 0;
  std::uint64_t contextBytes = 0;          // total − free once the context exists (other processes' use included)
  std::uint64_t cublasHandleBytes = 0;     // cublasCreate
  std::uint64_t cublasFirstGemmBytes = 0;  // the first GEMM: its workspace and lazily loaded kernels
  std::uint64_t fixedBytes = 0;            // all of the above: what the process holds before any phase
  std::uint64_t mallocGranularity = 0;     // free-memory drop of cudaMalloc(1)
  std::uint64_t vmmGranularity = 0;        // cuMemGetAllocationGranularity, minimum (0: not available)
  std::uint64_t vmmRecommendedGranularity = 0;
};

struct ComponentMeasurement {
  std::string name;
  Replay replay = Replay::Resident;
  std::uint64_t estimateBytes = 0;
  std::uint64_t measuredBytes = 0;  // Resident: its free-memory drop; Context: the process's fixed bytes
  bool allocated = false;
};

struct WorkloadMeasurement {
  std::uint64_t estimateBytes = 0;          // the phase's Workload components together
  std::uint64_t usedHighBytes = 0;          // pool: most bytes in live tensors at once
  std::uint64_t reservedHighBytes = 0;      // pool: most bytes it held from the driver (its fragmentation included)
  std::uint64_t deviceHighBytes = 0;        // largest free-memory drop below the phase's resident baseline
  std::uint64_t attentionScratchBytes = 0;  // score tiles a fused SDPA kernel would not allocate
  std::uint64_t savedPerBlockBytes = 0;     // pool growth of one block's forward with grad, its output excluded
  double milliseconds = 0;
};

struct PhaseMeasurement {
  std::string phase;
  bool ran = false;  // every allocation succeeded and the workload finished
  bool outOfMemory = false;
  std::string failure;  // what could not be allocated ("transformer weights", "workload: mlp up")
  std::vector<ComponentMeasurement> components;
  std::optional<WorkloadMeasurement> workload;
  std::uint64_t peakBytes = 0;  // total − lowest free seen during the phase, less the cap's hold-back
};

// The verdict check of one phase: the estimate's call on the capped card against what happened.
struct CapOutcome {
  std::string phase;
  Expectation expect = Expectation::Fits;
  bool ran = false;
  std::string failure;
  bool agrees = false;
};

struct CaseResult {
  std::string id;  // calibration case id, or the config path
  std::optional<ReplayPlan> plan;
  std::string skipped;  // why there is no plan or no run
  std::vector<PhaseMeasurement> phases;
  std::optional<CapPlan> cap;
  std::vector<CapOutcome> capOutcomes;
};

// Whether what happened agrees with the estimate's call: oom must fail, fits must run, borderline may do either.
bool agrees(Expectation expect, bool ran);
std::vector<CapOutcome> compareWithCap(const CapPlan& cap, const std::vector<PhaseMeasurement>& phases);

}  // namespace oomlint::harness
