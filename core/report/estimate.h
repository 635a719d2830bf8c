// The estimate as every front end shows it: per phase, which components are resident on the GPU and
// how many bytes each takes, each with the arithmetic that produced it, plus the uncertainty and a verdict.
// The systems compute it (engine/estimate_core.h has what they share); report/ and format/ only carry it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/ids.h"

namespace oomlint {

inline constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

// What a component is, for its share of the uncertainty.
enum class Term { Fixed, Weights, Trainable, Activations, Vae };

struct Component {
  std::string name;  // "transformer weights"
  double bytes = 0;
  std::string how;   // "11.9 B params × 1.05 B/param (qfloat8, 5% kept in bf16)"
  Term term = Term::Weights;
};

struct PhaseEstimate {
  Phase phase = Phase::Load;
  double peakBytes = 0;
  double uncertaintyBytes = 0;
  std::vector<Component> components;
};

enum class Verdict { Fits, Borderline, Oom };
std::string_view toString(Verdict verdict);

struct GpuTarget {
  std::string name;        // catalog name, or "24 GiB" for --vram
  std::uint64_t vramBytes = 0;

  // "RTX 4090 (23.5 GiB)", or "a 24 GiB card" when only a size was given.
  std::string describe() const;
};

struct Estimate {
  GpuTarget gpu;
  std::vector<PhaseEstimate> phases;
  std::size_t peakPhase = 0;
  Verdict verdict = Verdict::Fits;
  bool coarse = false;  // the architecture's dimensions are approximate
  const PhaseEstimate& peak() const { return phases[peakPhase]; }
};

std::string fixedText(double value, int digits = 2);  // printf's "%.*f"
std::string formatGiB(double bytes);                   // "22.9 GiB"
std::string gib(double bytes);                         // "22.9"

}  // namespace oomlint
