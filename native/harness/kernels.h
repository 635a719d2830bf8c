// The elementwise and row-wise kernels of the reference block (kernels.cu), as plain launchers.
// They reproduce the tensors a DiT block reads and writes, not its exact arithmetic: the harness
// measures memory, so e.g. the layer norm's backward keeps only its main term.
#pragma once

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace oomlint::harness::kernels {

using bf16 = __nv_bfloat16;

// Each launcher enqueues on `stream` and returns the launch's status.
cudaError_t fillRandom(bf16* data, std::uint64_t count, std::uint32_t seed, float scale, cudaStream_t stream);
cudaError_t layerNorm(const bf16* x, bf16* y, std::int64_t rows, std::int64_t cols, cudaStream_t stream);
// dx = residualGrad + dy · rstd(x), per row.
cudaError_t layerNormBackward(const bf16* x, const bf16* dy, const bf16* residualGrad, bf16* dx, std::int64_t rows,
                              std::int64_t cols, cudaStream_t stream);
cudaError_t add(const bf16* a, const bf16* b, bf16* out, std::uint64_t count, cudaStream_t stream);
cudaError_t gelu(const bf16* x, bf16* y, std::uint64_t count, cudaStream_t stream);
cudaError_t geluBackward(const bf16* x, const bf16* dy, bf16* dx, std::uint64_t count, cudaStream_t stream);

// Softmax over the rows of one attention tile of fp32 scores. Row r is query (r % chunk) of head
// (r / chunk); its log-sum-exp (or, backward, its delta) lives at [(r / chunk) · headStride + r % chunk].
cudaError_t softmaxForward(const float* scores, bf16* probs, float* lse, std::int64_t rows, std::int64_t cols, std::int64_t chunk,
                           std::int64_t headStride, cudaStream_t stream);
cudaError_t softmaxRecompute(const float* scores, const float* lse, bf16* probs, std::int64_t rows, std::int64_t cols,
                             std::int64_t chunk, std::int64_t headStride, cudaStream_t stream);
// In place: probs becomes dS = P ∘ (dP − delta) · scale.
cudaError_t softmaxBackward(bf16* probs, const float* dProbs, const float* delta, float scale, std::int64_t rows,
                            std::int64_t cols, std::int64_t chunk, std::int64_t headStride, cudaStream_t stream);
// delta[b][head][q] = Σ over the head's channels of dOut · out (FlashAttention's backward pre-pass).
cudaError_t attentionDelta(const bf16* dOut, std::int64_t ldDOut, const bf16* out, std::int64_t ldOut, float* delta, int batch,
                           int heads, std::int64_t tokens, int headDim, cudaStream_t stream);
// Writes every element of the VAE's working buffer from the latents (a memory-bound stand-in).
cudaError_t vaeWork(const bf16* latent, std::uint64_t latentCount, bf16* work, std::uint64_t workCount, cudaStream_t stream);

}  // namespace oomlint::harness::kernels
