#include "attention.h"

#include <algorithm>
#include <cmath>

#include "replay_plan.h"

namespace oomlint::harness {

namespace {

using kernels::bf16;

// cuBLAS is column-major: a row-major [rows, cols] matrix with row stride ld is, to cuBLAS, its
// transpose, a cols × rows matrix with the same ld. Every product below is written in those terms:
// per head, Q, K, V, O and their gradients are d × tokens; scores and probabilities are keys × queries.
struct Operand {
  const void* data;
  std::int64_t ld;
  std::int64_t stride;  // to the next head of the batch
};

struct Output {
  void* data;
  cudaDataType type;
  std::int64_t ld;
  std::int64_t stride;
};

// C (m×n) = alpha · op(A) · op(B) + beta · C for each of `heads` heads; bf16 inputs, fp32 accumulation.
struct HeadGemm {
  cublasOperation_t transA, transB;
  std::int64_t m, n, k;
  Operand a, b;
  Output c;
  std::int64_t heads;
};

void run(cublasHandle_t blas, const HeadGemm& g, float alpha, float beta) {
  check(cublasGemmStridedBatchedEx_64(blas, g.transA, g.transB, g.m, g.n, g.k, &alpha, g.a.data, CUDA_R_16BF, g.a.ld, g.a.stride,
                                      g.b.data, CUDA_R_16BF, g.b.ld, g.b.stride, &beta, g.c.data, g.c.type, g.c.ld, g.c.stride,
                                      g.heads, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
        "attention GEMM");
}

struct Tile {
  int batch;
  int head0, heads;
  std::int64_t query0, queries;
};

// The tiles in order: batch, then head groups, then query chunks.
template <class Visit>
void forEachTile(const AttentionOperands& in, const AttentionTiling& tiling, Visit visit) {
  for (int b = 0; b < in.batch; ++b) {
    for (int h0 = 0; h0 < in.heads; h0 += tiling.headsPerPass) {
      const int heads = std::min(tiling.headsPerPass, in.heads - h0);
      for (std::int64_t q0 = 0; q0 < in.queryTokens; q0 += tiling.queryChunk) {
        visit(Tile{b, h0, heads, q0, std::min(tiling.queryChunk, in.queryTokens - q0)});
      }
    }
  }
}

// Where a tile's operands start: the tile's first row (token) and first head.
template <class T>
T* at(T* base, std::int64_t ld, std::int64_t row, int head, int headDim) {
  return base + row * ld + static_cast<std::int64_t>(head) * headDim;
}

AttentionTiling tilingFor(const AttentionOperands& in) {
  return tileAttention({"", in.batch, in.heads, in.queryTokens, in.keyTokens, in.headDim}, kAttentionScratchBudget);
}

std::uint64_t tileElements(const AttentionTiling& tiling, const AttentionOperands& in) {
  return static_cast<std::uint64_t>(tiling.headsPerPass) * static_cast<std::uint64_t>(tiling.queryChunk) *
         static_cast<std::uint64_t>(in.keyTokens);
}

// The pointers and strides of one tile.
struct TileView {
  std::int64_t d, keys, queries;
  std::int64_t keyRow, queryRow;  // the tile's first key and query rows in the [batch · tokens] operands
  std::int64_t stat;              // the tile's first entry in [batch][heads][queryTokens] statistics
  std::int64_t rows;              // score rows: heads × queries
  std::int64_t tileStride;        // from one head's scores to the next
  Operand q, k, v;
};

TileView viewOf(const AttentionOperands& in, const Tile& t) {
  TileView v{};
  v.d = in.headDim;
  v.keys = in.keyTokens;
  v.queries = t.queries;
  v.keyRow = static_cast<std::int64_t>(t.batch) * in.keyTokens;
  v.queryRow = static_cast<std::int64_t>(t.batch) * in.queryTokens + t.query0;
  v.stat = (static_cast<std::int64_t>(t.batch) * in.heads + t.head0) * in.queryTokens + t.query0;
  v.rows = static_cast<std::int64_t>(t.heads) * t.queries;
  v.tileStride = t.queries * in.keyTokens;
  v.q = {at(in.q, in.ldq, v.queryRow, t.head0, in.headDim), in.ldq, v.d};
  v.k = {at(in.k, in.ldk, v.keyRow, t.head0, in.headDim), in.ldk, v.d};
  v.v = {at(in.v, in.ldv, v.keyRow, t.head0, in.headDim), in.ldv, v.d};
  return v;
}

// S (keys × queries, fp32) = Kᵀ · Q, scaled.
void scores(cublasHandle_t blas, const TileView& v, int heads, float* s, float scale) {
  run(blas, {CUBLAS_OP_T, CUBLAS_OP_N, v.keys, v.queries, v.d, v.k, v.q, {s, CUDA_R_32F, v.keys, v.tileStride}, heads}, scale,
      0.0f);
}

}  // namespace

void attentionForward(Workspace& ws, cublasHandle_t blas, const AttentionOperands& in, bf16* out, std::int64_t ldo, float* lse,
                      bool compute) {
  const AttentionTiling tiling = tilingFor(in);
  PoolBuffer s = ws.allocate(tileElements(tiling, in) * sizeof(float), "attention scores tile");
  PoolBuffer p = ws.allocate(tileElements(tiling, in) * sizeof(bf16), "attention probabilities tile");
  ws.noteScratch(s.bytes() + p.bytes());
  if (!compute) return;
  const float scale = 1.0f / std::sqrt(static_cast<float>(in.headDim));
  forEachTile(in, tiling, [&](const Tile& t) {
    const TileView v = viewOf(in, t);
    scores(blas, v, t.heads, s.as<float>(), scale);
    check(kernels::softmaxForward(s.as<float>(), p.as<bf16>(), lse + v.stat, v.rows, v.keys, v.queries, in.queryTokens,
                                  ws.stream()),
          "softmax");
    // O (d × queries) = V (d × keys) · P.
    const Operand probs{p.as<bf16>(), v.keys, v.tileStride};
    const Output o{at(out, ldo, v.queryRow, t.head0, in.headDim), CUDA_R_16BF, ldo, v.d};
    run(blas, {CUBLAS_OP_N, CUBLAS_OP_N, v.d, v.queries, v.keys, v.v, probs, o, t.heads}, 1.0f, 0.0f);
  });
}

void attentionBackward(Workspace& ws, cublasHandle_t blas, const AttentionOperands& in, const bf16* out, std::int64_t ldo,
                       const float* lse, const bf16* dOut, std::int64_t lddo, const AttentionGrads& g, bool compute) {
  const AttentionTiling tiling = tilingFor(in);
  const std::uint64_t stats =
      static_cast<std::uint64_t>(in.batch) * static_cast<std::uint64_t>(in.heads) * static_cast<std::uint64_t>(in.queryTokens);
  PoolBuffer delta = ws.allocate(stats * sizeof(float), "attention backward delta");
  PoolBuffer s = ws.allocate(tileElements(tiling, in) * sizeof(float), "attention scores tile");        // S, then dP
  PoolBuffer p = ws.allocate(tileElements(tiling, in) * sizeof(bf16), "attention probabilities tile");  // P, then dS
  ws.noteScratch(s.bytes() + p.bytes());
  if (!compute) return;
  check(kernels::attentionDelta(dOut, lddo, out, ldo, delta.as<float>(), in.batch, in.heads, in.queryTokens, in.headDim,
                                ws.stream()),
        "attention delta");
  const float scale = 1.0f / std::sqrt(static_cast<float>(in.headDim));
  forEachTile(in, tiling, [&](const Tile& t) {
    const TileView v = viewOf(in, t);
    const float accumulate = t.query0 == 0 ? 0.0f : 1.0f;  // dK and dV sum over the query chunks
    const Operand dO{at(dOut, lddo, v.queryRow, t.head0, in.headDim), lddo, v.d};
    const Operand probs{p.as<bf16>(), v.keys, v.tileStride};  // P, later dS, in place
    const Output dV{at(g.dv, g.lddv, v.keyRow, t.head0, in.headDim), CUDA_R_16BF, g.lddv, v.d};
    const Output dK{at(g.dk, g.lddk, v.keyRow, t.head0, in.headDim), CUDA_R_16BF, g.lddk, v.d};
    const Output dQ{at(g.dq, g.lddq, v.queryRow, t.head0, in.headDim), CUDA_R_16BF, g.lddq, v.d};

    scores(blas, v, t.heads, s.as<float>(), scale);
    check(kernels::softmaxRecompute(s.as<float>(), lse + v.stat, p.as<bf16>(), v.rows, v.keys, v.queries, in.queryTokens,
                                    ws.stream()),
          "softmax recompute");
    // dV (d × keys) += dO (d × queries) · Pᵀ.
    run(blas, {CUBLAS_OP_N, CUBLAS_OP_T, v.d, v.keys, v.queries, dO, probs, dV, t.heads}, 1.0f, accumulate);
    // dP (keys × queries, fp32, over S) = Vᵀ · dO.
    run(blas,
        {CUBLAS_OP_T, CUBLAS_OP_N, v.keys, v.queries, v.d, v.v, dO, {s.as<float>(), CUDA_R_32F, v.keys, v.tileStride}, t.heads},
        1.0f, 0.0f);
    check(kernels::softmaxBackward(p.as<bf16>(), s.as<float>(), delta.as<float>() + v.stat, scale, v.rows, v.keys, v.queries,
                                   in.queryTokens, ws.stream()),
          "softmax backward");
    // dQ (d × queries) = K (d × keys) · dS.
    run(blas, {CUBLAS_OP_N, CUBLAS_OP_N, v.d, v.queries, v.keys, v.k, probs, dQ, t.heads}, 1.0f, 0.0f);
    // dK (d × keys) += Q (d × queries) · dSᵀ.
    run(blas, {CUBLAS_OP_N, CUBLAS_OP_T, v.d, v.keys, v.queries, v.q, probs, dK, t.heads}, 1.0f, accumulate);
  });
}

}  // namespace oomlint::harness
