// The estimate as every front end shows it: per phase, which components are resident on the GPU and
// how many bytes each takes, each with the arithmetic that produced it, plus the uncertainty and a verdict.
// The systems compute it (engine/estimate_core.h has what they share); report/ and format/ only carry it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/ids.h"
#include "base/text/decimal_text.h"  // fixedText, which the figures are written with

namespace oomlint {

inline constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

// What a component's figure rests on, which sets how far the range reaches around it (memory.yaml uncertainty). The
// activations by where their coefficients were measured: a GPU run of the block, the CPU census or a prior, or no
// census of that block at all. VaeFloor: a pass from the VAE's structure, which a GPU cannot do with less (its range
// reaches above only). Budget: weights a memory manager loads up to what the rest of the card leaves, and the context
// beside them: the manager measures what is free, so their sum is certain.
enum class Term { Fixed, Weights, Trainable, Activations, ActivationsMeasuredOnGpu, ActivationsUnmeasured, Vae, VaeFloor, Budget };
constexpr bool isActivations(Term t) {
  return t == Term::Activations || t == Term::ActivationsMeasuredOnGpu || t == Term::ActivationsUnmeasured;
}

// A component's name: a literal of the estimators' fixed vocabulary ("transformer weights"), held as a view. Nothing
// makes one of a std::string, whose text could be gone before the report is written.
class ComponentName : public std::string_view {
 public:
  constexpr ComponentName() = default;
  constexpr ComponentName(const char* literal) : std::string_view(literal) {}
  ComponentName(const std::string&) = delete;
  ComponentName(std::string&&) = delete;
};

struct Component {
  ComponentName name;  // "transformer weights"
  double bytes = 0;
  std::string how;   // "11.9 B params × 1.05 B/param (qfloat8, 5% kept in bf16)"
  Term term = Term::Weights;
  // Host RAM only: pages mapped from a checkpoint file. Linux can drop and re-read them under pressure;
  // Windows commits them (RAM plus page file), so they decide a borderline, not an oom.
  bool fileBacked = false;
};

// One reason the range is as wide as it is, and how far it moves each end.
struct RangeReason {
  std::string why;        // "activation coefficients ±35%", "AI Toolkit before 2026-09 quantized on the GPU"
  double belowBytes = 0;  // how far it lowers the low end
  double aboveBytes = 0;  // how far it raises the high end
};

struct PhaseEstimate {
  explicit PhaseEstimate(Phase p = Phase::Load) : phase(p) {}
  Phase phase;
  double peakBytes = 0;  // the expected peak: the components summed
  std::vector<Component> components;
  // The range the peak can honestly be said to lie in, from what is uncertain in this config.
  double lowBytes = 0;
  double highBytes = 0;
  std::vector<RangeReason> range;
  double aboveBytes() const { return highBytes - peakBytes; }
};

enum class Verdict { Fits, Borderline, Oom };
std::string_view toString(Verdict verdict);

struct GpuTarget {
  std::string name;        // catalog name, or "24 GiB" for --vram
  std::uint64_t vramBytes = 0;
  double computeCapability = 0;  // a catalog NVIDIA card's; 0: not known (a size given, another vendor)
  std::string vendor{};          // the catalog's ("nvidia", "amd", "intel", "apple"); empty when only a size was given
  std::string arch{};            // an AMD card's LLVM target (gfx1100 …)
  bool memoryGiven = false;      // a catalog card whose memory was given (an APU's carve-out, a modded or sliced card)

  // NVIDIA's, or a card given by its size alone, which is taken for NVIDIA's.
  bool nvidiaOrUnnamed() const { return vendor.empty() || vendor == "nvidia"; }
  // A card PyTorch runs through ROCm (AMD) or XPU (Intel) rather than CUDA.
  bool rocmOrXpu() const { return vendor == "amd" || vendor == "intel"; }

  // An NVIDIA card before compute capability 8.0 (Ampere) has no native bf16. Unknown cards are taken to have it.
  bool predatesBf16() const { return computeCapability > 0 && computeCapability < 8.0; }
  // PyTorch runs bf16 convolutions through cuDNN from compute capability 8.0 on; before, it unfolds each input into a
  // column buffer (slow_conv2d / slow_conv3d).
  bool bf16ConvolutionsWithoutCudnn() const { return predatesBf16(); }

  // "RTX 4090 (23.5 GiB)", or "a 24 GiB card" when only a size was given.
  std::string describe() const;
};

// What the training process holds in system RAM, per phase, against the machine's RAM when it was given.
struct HostEstimate {
  std::optional<std::uint64_t> ramBytes;  // --ram; nullopt: the verdict is unknown unless a log shows a kill
  std::vector<PhaseEstimate> phases;
  std::size_t peakPhase = 0;
  std::size_t verdictPhase = 0;           // the phase that decides the verdict (the most undroppable memory, for an oom)
  std::optional<Verdict> verdict;         // nullopt: unknown
  bool logKilled = false;                 // the attached log's run was killed for host RAM
  Phase logPhase = Phase::None;           // in this phase, when the log says
  std::vector<std::string> notes;         // what the figures leave out ("cached latents: … per image")
  const PhaseEstimate& peak() const { return phases[peakPhase]; }
  const PhaseEstimate& deciding() const { return phases[verdictPhase]; }
  // A phase's bytes that a kernel cannot drop: all but the checkpoint's mapped pages.
  double committedBytes(const PhaseEstimate& phase) const;
  std::string describeRam() const;        // "a 32 GiB machine"
};

struct Estimate {
  GpuTarget gpu;
  std::vector<PhaseEstimate> phases;
  std::size_t peakPhase = 0;
  // Overall: the largest expected peak, and the largest low and high end of any phase.
  double lowBytes = 0;
  double highBytes = 0;
  Verdict verdict = Verdict::Fits;
  bool coarse = false;  // the architecture's dimensions are approximate
  std::string assumes;  // whose behaviour the figures follow: "AI Toolkit at 27a03a9 (2026-08-21)"
  std::optional<HostEstimate> host;  // system RAM, for the systems that estimate it
  const PhaseEstimate& peak() const { return phases[peakPhase]; }
};

std::string_view toString(const std::optional<Verdict>& verdict);  // "unknown" when nullopt

std::string formatGiB(double bytes);                   // "22.9 GiB"
std::string formatRange(const PhaseEstimate& phase);   // "22.9 GiB (21.8–24.1)"
std::string formatRange(const Estimate& e);            // the overall peak and range, the same way
std::string gib(double bytes);                         // "22.9"

}  // namespace oomlint
