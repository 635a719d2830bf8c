#include "systems/logs/gpu_state.h"

#include <algorithm>

#include "systems/logs/line_text.h"

namespace oomlint {

void judgeGpuState(LogAnalysis& r, const std::vector<KnowledgeText>& cappedBy) {
  const OomNumbers& n = r.numbers;
  // Memory this process's PyTorch pool does not account for, beyond a CUDA context's worth.
  std::int64_t outside = 0;
  if (n.totalCapacity && n.free && n.allocatedByPytorch && !n.processInUse) {
    outside = *n.totalCapacity - *n.free - *n.allocatedByPytorch - n.reservedUnallocated.value_or(0);
  }
  // "Process N has X memory in use" with no "this process has": inside a container PyTorch lists its own
  // process under the host's PID. One that holds all the card's used memory and at least what PyTorch
  // allocated is this process, not another.
  const bool selfUnderHostPid = !n.processInUse && n.totalCapacity && n.free && n.allocatedByPytorch &&
                                n.otherProcesses >= *n.allocatedByPytorch &&
                                static_cast<double>(n.otherProcesses) >= 0.98 * static_cast<double>(*n.totalCapacity - *n.free);
  if (n.otherProcesses > 0 && !selfUnderHostPid) {
    r.gpuStateSuspect = true;
    r.gpuStateReason = "another process holds GPU memory";
  } else if (n.totalCapacity && outside > std::max<std::int64_t>(*n.totalCapacity / 4, 3ll << 29)) {
    r.gpuStateSuspect = true;
    r.gpuStateReason = "most of the GPU's memory is held outside this process's PyTorch pool";
  } else if (n.free && n.triedToAllocate && *n.free > (1ll << 30) && *n.free > 10 * *n.triedToAllocate &&
             std::none_of(cappedBy.begin(), cappedBy.end(), [&](std::string_view cap) { return contains(r.oomText, cap); })) {
    r.gpuStateSuspect = true;
    r.gpuStateReason = "plenty is free, yet a small allocation failed: the allocator or driver state, not the config";
  } else if (n.totalCapacity && n.free && n.processInUse && *n.free < (64ll << 20) && *n.processInUse < *n.totalCapacity / 4 &&
             *n.processInUse >= n.allocatedByPytorch.value_or(0)) {
    // A process figure below PyTorch's own allocations is NVML's that cannot see the process (a container, WSL):
    // it says nothing of other processes.
    r.gpuStateSuspect = true;
    r.gpuStateReason = "the GPU is full but this process holds little of it";
  } else if (n.free && n.triedToAllocate && n.allocatedByPytorch == 0 && *n.triedToAllocate < *n.free) {
    r.gpuStateSuspect = true;
    r.gpuStateReason = "the first allocation failed though more than it was free: the driver or GPU state, not the config";
  }
}

}  // namespace oomlint
