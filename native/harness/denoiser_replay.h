// The denoiser's work on the GPU: the reference block of the plan's shapes, run through all blocks
// keeping what the checkpointing policy keeps and back through the last one (training), or forward
// only (sampling); and the VAE's working buffer.
#pragma once

#include <cublas_v2.h>

#include <cstdint>

#include "cuda_support.h"
#include "replay_plan.h"

namespace oomlint::harness {

struct DenoiserRun {
  std::uint64_t savedPerBlockBytes = 0;  // pool growth of one block's forward with grad, its output excluded
};

// `resident`: the phase's transformer buffer, read as bf16 weights when the plan says so (else null).
// Blocks from `forwardBlocks` on (−1: none) allocate their tensors without running kernels.
DenoiserRun replayDenoiser(Workspace& workspace, cublasHandle_t blas, const DenoiserWorkload& work, void* resident,
                           std::uint64_t residentBytes, int forwardBlocks);

void replayVae(Workspace& workspace, const VaeWorkload& work);

}  // namespace oomlint::harness
