#include <cmath>

#include "kernels.h"

namespace oomlint::harness::kernels {

namespace {

constexpr int kThreads = 256;

// Elementwise kernels stride over the grid, so a million blocks cover any tensor.
unsigned gridFor(std::uint64_t count) {
  constexpr std::uint64_t kMaxBlocks = 1u << 20;
  const std::uint64_t blocks = (count + kThreads - 1) / kThreads;
  return static_cast<unsigned>(blocks < kMaxBlocks ? blocks : kMaxBlocks);
}

__device__ float warpSum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

__device__ float warpMax(float v) {
  for (int offset = 16; offset > 0; offset >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

// Block-wide reductions for kThreads threads; `shared` holds one float per warp.
__device__ float blockSum(float v, float* shared) {
  v = warpSum(v);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) shared[warp] = v;
  __syncthreads();
  v = threadIdx.x < kThreads / 32 ? shared[threadIdx.x] : 0.0f;
  if (warp == 0) v = warpSum(v);
  if (threadIdx.x == 0) shared[0] = v;
  __syncthreads();
  const float total = shared[0];
  __syncthreads();
  return total;
}

__device__ float blockMax(float v, float* shared) {
  v = warpMax(v);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) shared[warp] = v;
  __syncthreads();
  v = threadIdx.x < kThreads / 32 ? shared[threadIdx.x] : -INFINITY;
  if (warp == 0) v = warpMax(v);
  if (threadIdx.x == 0) shared[0] = v;
  __syncthreads();
  const float best = shared[0];
  __syncthreads();
  return best;
}

__device__ std::uint32_t hash(std::uint64_t i, std::uint32_t seed) {
  std::uint32_t x = static_cast<std::uint32_t>(i) ^ static_cast<std::uint32_t>(i >> 32) * 0x9e3779b9u ^ seed;
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

__global__ void fillRandomKernel(bf16* data, std::uint64_t count, std::uint32_t seed, float scale) {
  for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::uint64_t>(gridDim.x) * blockDim.x) {
    const float unit = static_cast<float>(hash(i, seed)) * (2.0f / 4294967295.0f) - 1.0f;
    data[i] = __float2bfloat16(unit * scale);
  }
}

__device__ float rowRstd(const bf16* row, std::int64_t cols, float* shared, float* meanOut) {
  float sum = 0, squares = 0;
  for (std::int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
    const float v = __bfloat162float(row[c]);
    sum += v;
    squares += v * v;
  }
  const float mean = blockSum(sum, shared) / static_cast<float>(cols);
  const float variance = fmaxf(blockSum(squares, shared) / static_cast<float>(cols) - mean * mean, 0.0f);
  *meanOut = mean;
  return rsqrtf(variance + 1e-6f);
}

__global__ void layerNormKernel(const bf16* x, bf16* y, std::int64_t cols) {
  __shared__ float shared[kThreads / 32];
  const bf16* row = x + blockIdx.x * cols;
  float mean = 0;
  const float rstd = rowRstd(row, cols, shared, &mean);
  bf16* out = y + blockIdx.x * cols;
  for (std::int64_t c = threadIdx.x; c < cols; c += blockDim.x)
    out[c] = __float2bfloat16((__bfloat162float(row[c]) - mean) * rstd);
}

__global__ void layerNormBackwardKernel(const bf16* x, const bf16* dy, const bf16* residualGrad, bf16* dx, std::int64_t cols) {
  __shared__ float shared[kThreads / 32];
  const std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * cols;
  float mean = 0;
  const float rstd = rowRstd(x + base, cols, shared, &mean);
  for (std::int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
    dx[base + c] = __float2bfloat16(__bfloat162float(residualGrad[base + c]) + __bfloat162float(dy[base + c]) * rstd);
  }
}

__global__ void addKernel(const bf16* a, const bf16* b, bf16* out, std::uint64_t count) {
  for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::uint64_t>(gridDim.x) * blockDim.x) {
    out[i] = __float2bfloat16(__bfloat162float(a[i]) + __bfloat162float(b[i]));
  }
}

__device__ float geluOf(float v) { return 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v))); }

__global__ void geluKernel(const bf16* x, bf16* y, std::uint64_t count) {
  for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::uint64_t>(gridDim.x) * blockDim.x) {
    y[i] = __float2bfloat16(geluOf(__bfloat162float(x[i])));
  }
}

__global__ void geluBackwardKernel(const bf16* x, const bf16* dy, bf16* dx, std::uint64_t count) {
  for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::uint64_t>(gridDim.x) * blockDim.x) {
    const float v = __bfloat162float(x[i]);
    const float t = tanhf(0.7978845608f * (v + 0.044715f * v * v * v));
    const float slope = 0.5f * (1.0f + t) + 0.5f * v * (1.0f - t * t) * 0.7978845608f * (1.0f + 3.0f * 0.044715f * v * v);
    dx[i] = __float2bfloat16(__bfloat162float(dy[i]) * slope);
  }
}

__device__ std::int64_t statIndex(std::int64_t row, std::int64_t chunk, std::int64_t headStride) {
  return (row / chunk) * headStride + row % chunk;
}

__global__ void softmaxForwardKernel(const float* scores, bf16* probs, float* lse, std::int64_t cols, std::int64_t chunk,
                                     std::int64_t headStride) {
  __shared__ float shared[kThreads / 32];
  const std::int64_t row = blockIdx.x;
  const float* s = scores + row * cols;
  float best = -INFINITY;
  for (std::int64_t c = threadIdx.x; c < cols; c += blockDim.x) best = fmaxf(best, s[c]);
  best = blockMax(best, shared);
  float sum = 0;
  for (std::int64_t c = threadIdx.x; c < cols; c += blockDim.x) sum += __expf(s[c] - best);
  sum = blockSum(sum, shared);
  const float logSum = best + __logf(sum);
  bf16* p = probs + row * cols;
  for (std::int64_t c = threadIdx.x; c < cols; c += blockDim.x) p[c] = __float2bfloat16(__expf(s[c] - logSum));
  if (threadIdx.x == 0) lse[statIndex(row, chunk, headStride)] = logSum;
}

__global__ void softmaxRecomputeKernel(const float* scores, const float* lse, bf16* probs, std::int64_t cols, std::int64_t chunk,
                                       std::int64_t headStride) {
  const std::int64_t row = blockIdx.x;
  const float logSum = lse[statIndex(row, chunk, headStride)];
  for (std::int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
    probs[row * cols + c] = __float2bfloat16(__expf(scores[row * cols + c] - logSum));
  }
}

__global__ void softmaxBackwardKernel(bf16* probs, const float* dProbs, const float* delta, float scale, std::int64_t cols,
                                      std::int64_t chunk, std::int64_t headStride) {
  const std::int64_t row = blockIdx.x;
  const float d = delta[statIndex(row, chunk, headStride)];
  for (std::int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
    const std::int64_t i = row * cols + c;
    probs[i] = __float2bfloat16(__bfloat162float(probs[i]) * (dProbs[i] - d) * scale);
  }
}

// One warp per (batch, token, head).
__global__ void attentionDeltaKernel(const bf16* dOut, std::int64_t ldDOut, const bf16* out, std::int64_t ldOut, float* delta,
                                     int heads, std::int64_t tokens, int headDim, std::int64_t items) {
  const std::int64_t item = (blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x) / 32;
  if (item >= items) return;  // whole warps leave together: items are warp-aligned
  const int lane = threadIdx.x & 31;
  const int head = static_cast<int>(item % heads);
  const std::int64_t row = item / heads;  // batch · tokens + token
  const bf16* a = dOut + row * ldDOut + static_cast<std::int64_t>(head) * headDim;
  const bf16* b = out + row * ldOut + static_cast<std::int64_t>(head) * headDim;
  float sum = 0;
  for (int c = lane; c < headDim; c += 32) sum += __bfloat162float(a[c]) * __bfloat162float(b[c]);
  sum = warpSum(sum);
  if (lane == 0) {
    const std::int64_t batch = row / tokens, token = row % tokens;
    delta[(batch * heads + head) * tokens + token] = sum;
  }
}

__global__ void vaeWorkKernel(const bf16* latent, std::uint64_t latentCount, bf16* work, std::uint64_t workCount) {
  for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < workCount;
       i += static_cast<std::uint64_t>(gridDim.x) * blockDim.x) {
    work[i] = latentCount > 0 ? latent[i % latentCount] : __float2bfloat16(0.0f);
  }
}

cudaError_t launched() { return cudaGetLastError(); }

unsigned rowGrid(std::int64_t rows) { return static_cast<unsigned>(rows); }

}  // namespace

cudaError_t fillRandom(bf16* data, std::uint64_t count, std::uint32_t seed, float scale, cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  fillRandomKernel<<<gridFor(count), kThreads, 0, stream>>>(data, count, seed, scale);
  return launched();
}

cudaError_t layerNorm(const bf16* x, bf16* y, std::int64_t rows, std::int64_t cols, cudaStream_t stream) {
  if (rows == 0) return cudaSuccess;
  layerNormKernel<<<rowGrid(rows), kThreads, 0, stream>>>(x, y, cols);
  return launched();
}

cudaError_t layerNormBackward(const bf16* x, const bf16* dy, const bf16* residualGrad, bf16* dx, std::int64_t rows,
                              std::int64_t cols, cudaStream_t stream) {
  if (rows == 0) return cudaSuccess;
  layerNormBackwardKernel<<<rowGrid(rows), kThreads, 0, stream>>>(x, dy, residualGrad, dx, cols);
  return launched();
}

cudaError_t add(const bf16* a, const bf16* b, bf16* out, std::uint64_t count, cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  addKernel<<<gridFor(count), kThreads, 0, stream>>>(a, b, out, count);
  return launched();
}

cudaError_t gelu(const bf16* x, bf16* y, std::uint64_t count, cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  geluKernel<<<gridFor(count), kThreads, 0, stream>>>(x, y, count);
  return launched();
}

cudaError_t geluBackward(const bf16* x, const bf16* dy, bf16* dx, std::uint64_t count, cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  geluBackwardKernel<<<gridFor(count), kThreads, 0, stream>>>(x, dy, dx, count);
  return launched();
}

cudaError_t softmaxForward(const float* scores, bf16* probs, float* lse, std::int64_t rows, std::int64_t cols, std::int64_t chunk,
                           std::int64_t headStride, cudaStream_t stream) {
  if (rows == 0) return cudaSuccess;
  softmaxForwardKernel<<<rowGrid(rows), kThreads, 0, stream>>>(scores, probs, lse, cols, chunk, headStride);
  return launched();
}

cudaError_t softmaxRecompute(const float* scores, const float* lse, bf16* probs, std::int64_t rows, std::int64_t cols,
                             std::int64_t chunk, std::int64_t headStride, cudaStream_t stream) {
  if (rows == 0) return cudaSuccess;
  softmaxRecomputeKernel<<<rowGrid(rows), kThreads, 0, stream>>>(scores, lse, probs, cols, chunk, headStride);
  return launched();
}

cudaError_t softmaxBackward(bf16* probs, const float* dProbs, const float* delta, float scale, std::int64_t rows,
                            std::int64_t cols, std::int64_t chunk, std::int64_t headStride, cudaStream_t stream) {
  if (rows == 0) return cudaSuccess;
  softmaxBackwardKernel<<<rowGrid(rows), kThreads, 0, stream>>>(probs, dProbs, delta, scale, cols, chunk, headStride);
  return launched();
}

cudaError_t attentionDelta(const bf16* dOut, std::int64_t ldDOut, const bf16* out, std::int64_t ldOut, float* delta, int batch,
                           int heads, std::int64_t tokens, int headDim, cudaStream_t stream) {
  const std::int64_t items = static_cast<std::int64_t>(batch) * tokens * heads;
  if (items == 0) return cudaSuccess;
  const std::int64_t warpsPerBlock = kThreads / 32;
  const auto blocks = static_cast<unsigned>((items + warpsPerBlock - 1) / warpsPerBlock);
  attentionDeltaKernel<<<blocks, kThreads, 0, stream>>>(dOut, ldDOut, out, ldOut, delta, heads, tokens, headDim, items);
  return launched();
}

cudaError_t vaeWork(const bf16* latent, std::uint64_t latentCount, bf16* work, std::uint64_t workCount, cudaStream_t stream) {
  if (workCount == 0) return cudaSuccess;
  vaeWorkKernel<<<gridFor(workCount), kThreads, 0, stream>>>(latent, latentCount, work, workCount);
  return launched();
}

}  // namespace oomlint::harness::kernels
