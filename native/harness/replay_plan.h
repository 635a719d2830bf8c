// What the GPU harness replays for one config: per phase, the estimate's components and how each is
// reproduced on the device, and the shapes of the kernels that stand in for the model's work.
// Plain data only (no core or CUDA headers), so both the CUDA sources and the tests include it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace oomlint::harness {

// How the harness reproduces one estimate component.
enum class Replay {
  Context,   // CUDA context and library workspaces: measured once per process, never allocated
  Resident,  // a buffer of the estimated size, allocated and touched for the whole phase
  Workload,  // memory the phase's kernels create: measured while the workload runs
};
const char* toString(Replay replay);

struct ComponentPlan {
  std::string name;         // the estimate's component name ("transformer weights")
  std::uint64_t bytes = 0;  // the estimate's figure, rounded to whole bytes
  Replay replay = Replay::Resident;
  std::string how;  // the estimate's arithmetic, echoed in the report
};

// Y[m×n] = X[m×k] · Wᵀ, W stored [n×k] as in torch.nn.Linear: bf16 operands, fp32 accumulation.
struct Gemm {
  std::string name;
  std::int64_t m = 0, n = 0, k = 0;
};

struct Attention {
  std::string name;
  int batch = 0;
  int heads = 0;
  std::int64_t queryTokens = 0;
  std::int64_t keyTokens = 0;
  int headDim = 0;
};

// How the harness's attention splits the work so that its score scratch stays within a budget: heads
// in groups and queries in chunks, a fused SDPA (flash) kernel's memory plus one bounded tile.
struct AttentionTiling {
  int headsPerPass = 0;
  std::int64_t queryChunk = 0;
  std::uint64_t scratchBytes = 0;  // fp32 scores + bf16 probabilities of one tile
};

// The attention's split into head groups and query chunks whose score tile fits `scratchBudgetBytes`.
AttentionTiling tileAttention(const Attention& attention, std::uint64_t scratchBudgetBytes);

// The harness's bound on attention score scratch: small against any phase, large enough for tensor cores.
inline constexpr std::uint64_t kAttentionScratchBudget = 64ull << 20;

// A tensor autograd keeps from a block's forward until that block's backward.
struct SavedTensor {
  std::string name;
  std::uint64_t bytes = 0;
};

// One transformer block at a workload's shapes; every block of the model is taken to be this one
// (the core describes a DiT by one width, head count and MLP ratio for all its blocks).
struct BlockShape {
  int batch = 0;
  std::int64_t tokens = 0;       // sequence per sample that the block's linears see (joint text included)
  std::int64_t crossTokens = 0;  // text K/V length of a cross-attention, 0 when the model has none
  int hidden = 0;
  int heads = 0;
  int headDim = 0;
  std::int64_t mlpInner = 0;
  std::vector<Gemm> gemms;            // forward linears in execution order
  std::vector<Attention> attentions;  // self-attention, then cross-attention where present
  std::vector<SavedTensor> saved;     // what one block keeps for its backward
};

// The denoiser's work in a phase: a training step (forward through every block keeping what the
// checkpointing policy keeps, backward through the last block) or a sampling forward without grad.
struct DenoiserWorkload {
  BlockShape block;
  int blocks = 0;
  bool training = false;
  bool checkpointing = false;
  std::vector<SavedTensor> keptPerBlock;  // held for every block until backward
  std::vector<SavedTensor> recomputed;    // checkpointing: the one block re-run with grad for backward
  std::int64_t imageTokens = 0;           // per sample, before controls and text
  int frames = 1;                         // pixel frames (video), 1 for images
  int latentFrames = 1;                   // after the VAE's temporal compression
  int resolution = 0;                     // training: the dataset bucket; sampling: max(width, height)
  int width = 0, height = 0;
  int cfgPasses = 1;                     // sampling: 2 when classifier-free guidance batches a second pass
  bool weightsFromResident = false;      // the GEMMs read bf16 weights out of the resident transformer buffer
  std::string weightsNote;               // why they do not (quantized, fp32, offloaded)
  std::uint64_t textEmbeddingBytes = 0;  // the text encoder's output the blocks attend to
  std::uint64_t keptBytes = 0;           // everything held at the start of backward (or one block, sampling)
  double keptBytesPerTokenChannel = 0;   // one block's saved set per (batch × tokens × hidden), for the core's c
};

// A VAE pass: the core has no VAE layer shapes, so its working memory is replayed as one buffer of the
// estimated size (touched by a kernel) next to the real latent tensor.
struct VaeWorkload {
  bool decode = true;
  int width = 0, height = 0;
  int frames = 1;
  int latentFrames = 1;
  int latentChannels = 0;
  int latentWidth = 0, latentHeight = 0;
  std::uint64_t latentBytes = 0;  // bf16 latents of the whole clip
  std::uint64_t workBytes = 0;    // the estimate's working memory
};

struct PhasePlan {
  std::string name;
  double estimatePeakBytes = 0;
  double uncertaintyBytes = 0;
  std::vector<ComponentPlan> components;
  std::optional<DenoiserWorkload> denoiser;
  std::optional<VaeWorkload> vae;

  std::uint64_t bytesOf(Replay replay) const;
  std::uint64_t totalBytes() const;
};

struct ReplayPlan {
  std::string config;        // the path as given
  std::string architecture;  // "flux (FLUX.1 / Flex.1)"
  std::string gpu;           // the card the estimate is against
  std::uint64_t gpuBytes = 0;
  std::string verdict;  // the estimate's verdict on that card
  bool coarse = false;
  std::vector<PhasePlan> phases;
  std::vector<std::string> notes;  // where the plan could not follow the estimate exactly

  const PhasePlan* phase(std::string_view name) const;
};

// The verdict check: the estimate's call for each phase on a card of the cap's size, by the core's rule
// (oom above the card, borderline within the uncertainty of it, fits below).
enum class Expectation { Fits, Oom, Either };
const char* toString(Expectation expectation);

struct PhaseExpectation {
  std::string phase;
  double peakBytes = 0;
  double uncertaintyBytes = 0;
  Expectation expect = Expectation::Fits;
};

struct CapPlan {
  double capGib = 0;
  std::uint64_t capBytes = 0;
  std::vector<PhaseExpectation> phases;
  Expectation overall = Expectation::Fits;  // the peak phase's call: what the estimate's verdict says
};

}  // namespace oomlint::harness
