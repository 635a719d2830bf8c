// Attention with the memory of a fused SDPA (flash) kernel: the output and an fp32 log-sum-exp per query
// are all that outlive the call. The work runs as cuBLAS GEMMs over tiles of queries × heads whose
// fp32 scores and bf16 probabilities fit the plan's bounded scratch (tileAttention), which is reported
// apart because a fused kernel keeps its tiles in shared memory instead.
#pragma once

#include <cublas_v2.h>

#include <cstdint>

#include "cuda_support.h"
#include "kernels.h"

namespace oomlint::harness {

// Row-major [batch · tokens, ld] operands; head h of a row is the headDim channels at h · headDim.
struct AttentionOperands {
  const kernels::bf16* q = nullptr;
  std::int64_t ldq = 0;
  const kernels::bf16* k = nullptr;
  std::int64_t ldk = 0;
  const kernels::bf16* v = nullptr;
  std::int64_t ldv = 0;
  int batch = 0;
  int heads = 0;
  int headDim = 0;
  std::int64_t queryTokens = 0;
  std::int64_t keyTokens = 0;
};

struct AttentionGrads {
  kernels::bf16* dq = nullptr;
  std::int64_t lddq = 0;
  kernels::bf16* dk = nullptr;
  std::int64_t lddk = 0;
  kernels::bf16* dv = nullptr;
  std::int64_t lddv = 0;
};

// out: [batch · queryTokens, ldo]; lse: [batch][heads][queryTokens] fp32. With `compute` false only the
// scratch is allocated (the same memory, no GPU time).
void attentionForward(Workspace& workspace, cublasHandle_t blas, const AttentionOperands& in, kernels::bf16* out,
                      std::int64_t ldo, float* lse, bool compute);

void attentionBackward(Workspace& workspace, cublasHandle_t blas, const AttentionOperands& in, const kernels::bf16* out,
                       std::int64_t ldo, const float* lse, const kernels::bf16* dOut, std::int64_t lddo,
                       const AttentionGrads& grads, bool compute);

}  // namespace oomlint::harness
