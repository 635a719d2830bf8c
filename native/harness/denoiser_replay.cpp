#include "denoiser_replay.h"

#include <algorithm>
#include <string>
#include <vector>

#include "attention.h"
#include "kernels.h"

namespace oomlint::harness {

namespace {

using kernels::bf16;
constexpr std::uint64_t kBf16 = sizeof(bf16);
constexpr float kWeightScale = 0.02f;  // keeps random activations finite through dozens of blocks

std::uint64_t count(std::int64_t a, std::int64_t b) { return static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b); }

// The block's linear weights: bf16 slices of the resident transformer buffer when the plan says it
// holds them, else a transient bf16 copy per use (what dequantizing or casting a weight for its GEMM
// allocates in the real trainer).
class LinearWeights {
 public:
  LinearWeights(Workspace& ws, const DenoiserWorkload& work, void* resident, std::uint64_t residentBytes, bool fill) : ws_(ws) {
    std::uint64_t offset = 0;
    for (const Gemm& g : work.block.gemms) {
      offsets_.push_back(offset);
      offset += count(g.n, g.k) * kBf16;
    }
    if (!work.weightsFromResident || resident == nullptr || offset > residentBytes) return;
    base_ = static_cast<bf16*>(resident);
    if (fill) check(kernels::fillRandom(base_, offset / kBf16, 1, kWeightScale, ws.stream()), "initialising weights");
  }

  struct Lease {
    const bf16* data = nullptr;
    PoolBuffer owned;
  };

  Lease get(const Gemm& g, std::size_t index, bool compute) {
    if (base_ != nullptr) return {base_ + offsets_[index] / kBf16, {}};
    Lease lease;
    lease.owned = ws_.allocate(count(g.n, g.k) * kBf16, "bf16 weight of " + g.name);
    if (compute) {
      check(kernels::fillRandom(lease.owned.as<bf16>(), count(g.n, g.k), static_cast<std::uint32_t>(index + 2), kWeightScale,
                                ws_.stream()),
            "dequantizing " + g.name);
    }
    lease.data = lease.owned.as<bf16>();
    return lease;
  }

 private:
  Workspace& ws_;
  bf16* base_ = nullptr;
  std::vector<std::uint64_t> offsets_;
};

// What one block keeps for its backward (its input is kept by the caller).
struct SavedBlock {
  PoolBuffer norm1, qkv, attention, lse, residual1;
  PoolBuffer crossNorm, crossQ, crossKv, crossAttention, crossLse, residual2;
  PoolBuffer norm2, mlpUp, mlpActivation;
};

class BlockRunner {
 public:
  BlockRunner(Workspace& ws, cublasHandle_t blas, const BlockShape& shape, LinearWeights& weights, const bf16* text)
      : ws_(ws), blas_(blas), shape_(shape), weights_(weights), text_(text), rows_(count(shape.batch, shape.tokens)) {}

  bool compute = true;  // false: allocate every tensor, run nothing

  // One block on `input`. With `keep`, the tensors backward needs move into it (grad mode); without,
  // each is freed as soon as the block is done with it (no grad, or checkpointed forward).
  PoolBuffer forward(const PoolBuffer& input, SavedBlock* keep) {
    const std::int64_t h = shape_.hidden;
    PoolBuffer n1 = activation(h, "norm1 output");
    layerNorm(input, n1);
    PoolBuffer qkv = activation(3 * h, "qkv");
    linear("qkv", n1, qkv);
    if (!keep) n1.reset();
    PoolBuffer attention = activation(h, "attention output");
    PoolBuffer lse = statistics("attention log-sum-exp", shape_.tokens);
    attentionForward(ws_, blas_, selfAttention(qkv), attention.as<bf16>(), h, lse.as<float>(), compute);
    if (!keep) {
      qkv.reset();
      lse.reset();
    }
    PoolBuffer projected = activation(h, "attention projection");
    linear("attention out", attention, projected);
    if (!keep) attention.reset();
    PoolBuffer residual1 = activation(h, "residual 1");
    add(input, projected, residual1);
    projected.reset();

    PoolBuffer crossNorm, crossQ, crossKv, crossAttention, crossLse, residual2;
    if (shape_.crossTokens > 0) {
      crossNorm = activation(h, "cross norm output");
      layerNorm(residual1, crossNorm);
      crossQ = activation(h, "cross q");
      linear("cross q", crossNorm, crossQ);
      if (!keep) crossNorm.reset();
      crossKv = ws_.allocate(count(shape_.batch, shape_.crossTokens) * count(2 * h, 1) * kBf16, "cross kv");
      linear("cross kv", text_, crossKv.as<bf16>());
      crossAttention = activation(h, "cross attention output");
      crossLse = statistics("cross log-sum-exp", shape_.tokens);
      attentionForward(ws_, blas_, crossOperands(crossQ, crossKv), crossAttention.as<bf16>(), h, crossLse.as<float>(), compute);
      if (!keep) {
        crossQ.reset();
        crossKv.reset();
        crossLse.reset();
      }
      PoolBuffer crossProjected = activation(h, "cross projection");
      linear("cross out", crossAttention, crossProjected);
      if (!keep) crossAttention.reset();
      residual2 = activation(h, "residual 2");
      add(residual1, crossProjected, residual2);
      crossProjected.reset();
      if (!keep) residual1.reset();
    }
    const PoolBuffer& mlpInput = shape_.crossTokens > 0 ? residual2 : residual1;

    PoolBuffer norm2 = activation(h, "norm2 output");
    layerNorm(mlpInput, norm2);
    PoolBuffer mlpUp = activation(shape_.mlpInner, "mlp up");
    linear("mlp up", norm2, mlpUp);
    if (!keep) norm2.reset();
    PoolBuffer mlpActivation = activation(shape_.mlpInner, "mlp activation");
    gelu(mlpUp, mlpActivation);
    if (!keep) mlpUp.reset();
    PoolBuffer mlpDown = activation(h, "mlp down");
    linear("mlp down", mlpActivation, mlpDown);
    if (!keep) mlpActivation.reset();
    PoolBuffer output = activation(h, "block output");
    add(mlpInput, mlpDown, output);
    if (keep) {
      *keep = SavedBlock{.norm1 = std::move(n1),
                         .qkv = std::move(qkv),
                         .attention = std::move(attention),
                         .lse = std::move(lse),
                         .residual1 = std::move(residual1),
                         .crossNorm = std::move(crossNorm),
                         .crossQ = std::move(crossQ),
                         .crossKv = std::move(crossKv),
                         .crossAttention = std::move(crossAttention),
                         .crossLse = std::move(crossLse),
                         .residual2 = std::move(residual2),
                         .norm2 = std::move(norm2),
                         .mlpUp = std::move(mlpUp),
                         .mlpActivation = std::move(mlpActivation)};
    }
    return output;
  }

  // Backward through one block, freeing each saved tensor once its gradient step has used it, as
  // autograd does. LoRA's own weight gradients are a few MiB and live in the resident "gradients".
  PoolBuffer backward(const PoolBuffer& input, SavedBlock& s, PoolBuffer dy) {
    const std::int64_t h = shape_.hidden;
    const bool cross = shape_.crossTokens > 0;
    PoolBuffer dActivation = activation(shape_.mlpInner, "grad mlp activation");
    linearBackward("mlp down", dy, dActivation);
    s.mlpActivation.reset();
    PoolBuffer dUp = activation(shape_.mlpInner, "grad mlp up");
    geluBackward(s.mlpUp, dActivation, dUp);
    dActivation.reset();
    s.mlpUp.reset();
    PoolBuffer dNorm2 = activation(h, "grad norm2 output");
    linearBackward("mlp up", dUp, dNorm2);
    dUp.reset();
    s.norm2.reset();
    PoolBuffer dResidual = activation(h, "grad residual");
    const PoolBuffer& mlpInput = cross ? s.residual2 : s.residual1;
    layerNormBackward(mlpInput, dNorm2, dy, dResidual);
    dNorm2.reset();
    dy.reset();

    if (cross) {
      PoolBuffer dCrossAttention = activation(h, "grad cross attention output");
      linearBackward("cross out", dResidual, dCrossAttention);
      PoolBuffer dCrossQ = activation(h, "grad cross q");
      // The text's gradient is computed and dropped: the text encoder is not trained.
      PoolBuffer dCrossKv = ws_.allocate(count(shape_.batch, shape_.crossTokens) * count(2 * h, 1) * kBf16, "grad cross kv");
      attentionBackward(ws_, blas_, crossOperands(s.crossQ, s.crossKv), s.crossAttention.as<bf16>(), h, s.crossLse.as<float>(),
                        dCrossAttention.as<bf16>(), h,
                        {.dq = dCrossQ.as<bf16>(),
                         .lddq = h,
                         .dk = dCrossKv.as<bf16>(),
                         .lddk = 2 * h,
                         .dv = dCrossKv.as<bf16>() + h,
                         .lddv = 2 * h},
                        compute);
      dCrossAttention.reset();
      dCrossKv.reset();
      s.crossAttention.reset();
      s.crossLse.reset();
      s.crossKv.reset();
      PoolBuffer dCrossNorm = activation(h, "grad cross norm output");
      linearBackward("cross q", dCrossQ, dCrossNorm);
      dCrossQ.reset();
      s.crossQ.reset();
      PoolBuffer dResidual1 = activation(h, "grad residual 1");
      layerNormBackward(s.residual1, dCrossNorm, dResidual, dResidual1);
      dCrossNorm.reset();
      s.crossNorm.reset();
      s.residual2.reset();
      dResidual = std::move(dResidual1);
    }

    PoolBuffer dAttention = activation(h, "grad attention output");
    linearBackward("attention out", dResidual, dAttention);
    PoolBuffer dQkv = activation(3 * h, "grad qkv");
    attentionBackward(ws_, blas_, selfAttention(s.qkv), s.attention.as<bf16>(), h, s.lse.as<float>(), dAttention.as<bf16>(), h,
                      {.dq = dQkv.as<bf16>(),
                       .lddq = 3 * h,
                       .dk = dQkv.as<bf16>() + h,
                       .lddk = 3 * h,
                       .dv = dQkv.as<bf16>() + 2 * h,
                       .lddv = 3 * h},
                      compute);
    dAttention.reset();
    s.attention.reset();
    s.lse.reset();
    s.qkv.reset();
    PoolBuffer dNorm1 = activation(h, "grad norm1 output");
    linearBackward("qkv", dQkv, dNorm1);
    dQkv.reset();
    s.norm1.reset();
    PoolBuffer dInput = activation(h, "grad block input");
    layerNormBackward(input, dNorm1, dResidual, dInput);
    s.residual1.reset();
    return dInput;
  }

 private:
  std::int64_t rows() const { return static_cast<std::int64_t>(rows_); }

  PoolBuffer activation(std::int64_t columns, const char* what) { return ws_.allocate(rows_ * count(columns, 1) * kBf16, what); }
  PoolBuffer statistics(const char* what, std::int64_t tokens) {
    return ws_.allocate(count(shape_.batch, shape_.heads) * count(tokens, 1) * sizeof(float), what);
  }

  // The elementwise kernels, launched unless this block only allocates.
  void layerNorm(const PoolBuffer& x, PoolBuffer& y) {
    if (compute) check(kernels::layerNorm(x.as<bf16>(), y.as<bf16>(), rows(), shape_.hidden, ws_.stream()), "layer norm");
  }
  void layerNormBackward(const PoolBuffer& x, const PoolBuffer& dy, const PoolBuffer& residualGrad, PoolBuffer& dx) {
    if (!compute) return;
    check(kernels::layerNormBackward(x.as<bf16>(), dy.as<bf16>(), residualGrad.as<bf16>(), dx.as<bf16>(), rows(), shape_.hidden,
                                     ws_.stream()),
          "layer norm backward");
  }
  void add(const PoolBuffer& a, const PoolBuffer& b, PoolBuffer& out) {
    if (compute) check(kernels::add(a.as<bf16>(), b.as<bf16>(), out.as<bf16>(), out.bytes() / kBf16, ws_.stream()), "residual");
  }
  void gelu(const PoolBuffer& x, PoolBuffer& y) {
    if (compute) check(kernels::gelu(x.as<bf16>(), y.as<bf16>(), y.bytes() / kBf16, ws_.stream()), "gelu");
  }
  void geluBackward(const PoolBuffer& x, const PoolBuffer& dy, PoolBuffer& dx) {
    if (!compute) return;
    check(kernels::geluBackward(x.as<bf16>(), dy.as<bf16>(), dx.as<bf16>(), dx.bytes() / kBf16, ws_.stream()), "gelu backward");
  }

  std::size_t gemmIndex(std::string_view name) const {
    for (std::size_t i = 0; i < shape_.gemms.size(); ++i) {
      if (shape_.gemms[i].name == name) return i;
    }
    throw DeviceError("the plan has no GEMM named " + std::string(name), false);
  }

  // Y[m×n] = X[m×k] · Wᵀ: in cuBLAS's column-major terms Yᵀ (n×m) = W (stored k×n, transposed) · Xᵀ.
  void linear(std::string_view name, const bf16* x, bf16* y) {
    const std::size_t index = gemmIndex(name);
    const Gemm& g = shape_.gemms[index];
    const LinearWeights::Lease weight = weights_.get(g, index, compute);
    if (!compute) return;
    const float alpha = 1.0f, beta = 0.0f;
    check(cublasGemmEx_64(blas_, CUBLAS_OP_T, CUBLAS_OP_N, g.n, g.m, g.k, &alpha, weight.data, CUDA_R_16BF, g.k, x, CUDA_R_16BF,
                          g.k, &beta, y, CUDA_R_16BF, g.n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
          "GEMM " + g.name);
  }
  void linear(std::string_view name, const PoolBuffer& x, PoolBuffer& y) { linear(name, x.as<bf16>(), y.as<bf16>()); }

  // dX[m×k] = dY[m×n] · W: column-major dXᵀ (k×m) = W (stored k×n) · dYᵀ.
  void linearBackward(std::string_view name, const PoolBuffer& dy, PoolBuffer& dx) {
    const std::size_t index = gemmIndex(name);
    const Gemm& g = shape_.gemms[index];
    const LinearWeights::Lease weight = weights_.get(g, index, compute);
    if (!compute) return;
    const float alpha = 1.0f, beta = 0.0f;
    check(cublasGemmEx_64(blas_, CUBLAS_OP_N, CUBLAS_OP_N, g.k, g.m, g.n, &alpha, weight.data, CUDA_R_16BF, g.k, dy.as<bf16>(),
                          CUDA_R_16BF, g.n, &beta, dx.as<bf16>(), CUDA_R_16BF, g.k, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
          "GEMM backward " + g.name);
  }

  // Q, K and V side by side in one [rows, 3h] tensor.
  AttentionOperands selfAttention(const PoolBuffer& qkv) const {
    const std::int64_t h = shape_.hidden;
    const bf16* base = qkv.as<bf16>();
    return {.q = base,
            .ldq = 3 * h,
            .k = base + h,
            .ldk = 3 * h,
            .v = base + 2 * h,
            .ldv = 3 * h,
            .batch = shape_.batch,
            .heads = shape_.heads,
            .headDim = shape_.headDim,
            .queryTokens = shape_.tokens,
            .keyTokens = shape_.tokens};
  }

  // Queries from the image tokens; K and V side by side in one [batch · text tokens, 2h] tensor.
  AttentionOperands crossOperands(const PoolBuffer& q, const PoolBuffer& kv) const {
    const std::int64_t h = shape_.hidden;
    const bf16* keys = kv.as<bf16>();
    return {.q = q.as<bf16>(),
            .ldq = h,
            .k = keys,
            .ldk = 2 * h,
            .v = keys + h,
            .ldv = 2 * h,
            .batch = shape_.batch,
            .heads = shape_.heads,
            .headDim = shape_.headDim,
            .queryTokens = shape_.tokens,
            .keyTokens = shape_.crossTokens};
  }

  Workspace& ws_;
  cublasHandle_t blas_;
  const BlockShape& shape_;
  LinearWeights& weights_;
  const bf16* text_;
  std::uint64_t rows_;
};

bool computes(int forwardBlocks, int block) { return forwardBlocks < 0 || block < forwardBlocks; }

// What a block keeps, its input included, from the pool's growth over its forward with grad.
std::uint64_t savedBytes(std::uint64_t usedBefore, std::uint64_t usedAfter, const PoolBuffer& input, const PoolBuffer& output) {
  const auto grown = static_cast<std::int64_t>(usedAfter) - static_cast<std::int64_t>(usedBefore);
  const auto saved = grown - static_cast<std::int64_t>(output.bytes()) + static_cast<std::int64_t>(input.bytes());
  return saved > 0 ? static_cast<std::uint64_t>(saved) : 0;
}

}  // namespace

DenoiserRun replayDenoiser(Workspace& ws, cublasHandle_t blas, const DenoiserWorkload& work, void* resident,
                           std::uint64_t residentBytes, int forwardBlocks) {
  const BlockShape& shape = work.block;
  const std::uint64_t rows = count(shape.batch, shape.tokens);
  const bool anyCompute = forwardBlocks != 0 || work.training;
  LinearWeights weights(ws, work, resident, residentBytes, anyCompute);
  PoolBuffer text = ws.allocate(work.textEmbeddingBytes, "text embeddings");
  if (text) check(kernels::fillRandom(text.as<bf16>(), text.bytes() / kBf16, 7, 1.0f, ws.stream()), "text embeddings");
  BlockRunner runner(ws, blas, shape, weights, text.as<bf16>());

  PoolBuffer x = ws.allocate(rows * count(shape.hidden, 1) * kBf16, "block 0 input");
  check(kernels::fillRandom(x.as<bf16>(), x.bytes() / kBf16, 3, 1.0f, ws.stream()), "block input");
  DenoiserRun result;
  if (!work.training) {
    for (int i = 0; i < work.blocks; ++i) {
      runner.compute = computes(forwardBlocks, i);
      x = runner.forward(x, nullptr);
    }
    check(cudaStreamSynchronize(ws.stream()), "sampling forward");
    return result;
  }

  std::vector<PoolBuffer> inputs;
  std::vector<SavedBlock> saved;
  inputs.reserve(static_cast<std::size_t>(work.blocks));
  if (!work.checkpointing) saved.reserve(static_cast<std::size_t>(work.blocks));
  for (int i = 0; i < work.blocks; ++i) {
    runner.compute = computes(forwardBlocks, i);
    PoolBuffer out;
    if (work.checkpointing) {
      out = runner.forward(x, nullptr);  // torch.utils.checkpoint: the block's inside is not kept
    } else {
      saved.emplace_back();
      const std::uint64_t before = i == 0 ? ws.usedNow() : 0;
      out = runner.forward(x, &saved.back());
      if (i == 0) result.savedPerBlockBytes = savedBytes(before, ws.usedNow(), x, out);
    }
    inputs.push_back(std::move(x));
    x = std::move(out);
  }
  if (inputs.empty()) return result;

  // Backward through the last block: the loss's gradient replaces the model's output, and with
  // checkpointing the block runs again with grad first.
  runner.compute = true;
  PoolBuffer dy = ws.allocate(x.bytes(), "output gradient");
  check(kernels::fillRandom(dy.as<bf16>(), dy.bytes() / kBf16, 5, 1e-3f, ws.stream()), "output gradient");
  x.reset();
  SavedBlock recomputed;
  SavedBlock* last = &recomputed;
  if (work.checkpointing) {
    const std::uint64_t before = ws.usedNow();
    PoolBuffer out = runner.forward(inputs.back(), &recomputed);
    result.savedPerBlockBytes = savedBytes(before, ws.usedNow(), inputs.back(), out);
  } else {
    last = &saved.back();
  }
  PoolBuffer dx = runner.backward(inputs.back(), *last, std::move(dy));
  check(cudaStreamSynchronize(ws.stream()), "training step");
  return result;
}

void replayVae(Workspace& ws, const VaeWorkload& work) {
  PoolBuffer latent = ws.allocate(work.latentBytes, "VAE latents");
  check(kernels::fillRandom(latent.as<bf16>(), latent.bytes() / kBf16, 11, 1.0f, ws.stream()), "VAE latents");
  PoolBuffer buffer = ws.allocate(work.workBytes, work.decode ? "VAE decode working memory" : "VAE encode working memory");
  check(kernels::vaeWork(latent.as<bf16>(), latent.bytes() / kBf16, buffer.as<bf16>(), buffer.bytes() / kBf16, ws.stream()),
        "VAE work");
  check(cudaStreamSynchronize(ws.stream()), "VAE pass");
}

}  // namespace oomlint::harness
