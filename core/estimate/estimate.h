// The VRAM estimate: per phase, which components are resident on the GPU and how many bytes each
// takes, each with the arithmetic that produced it, plus the uncertainty and a verdict.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "estimate/setup.h"
#include "knowledge/memory_model.h"

namespace oomlint {

// What a component is, for its share of the uncertainty.
enum class Term { Fixed, Weights, Trainable, Activations, Vae };

struct Component {
  std::string name;  // "transformer weights"
  double bytes = 0;
  std::string how;   // "11.9 B params × 1.05 B/param (qfloat8, 5% kept in bf16)"
  Term term = Term::Weights;
};

struct PhaseEstimate {
  std::string name;  // DESIGN.md phase id
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

Estimate estimate(const TrainingSetup& setup, const MemoryModel& model, const GpuTarget& gpu);

// Shared by the training and the generation estimates:
// the phase's peak (its components summed) and uncertainty (each term's share, plus the coarse extra);
void totalPhase(PhaseEstimate& phase, const MemoryModel& model, bool coarse);
// the peak phase, and the verdict against the card (DESIGN.md: borderline within the uncertainty).
void concludeEstimate(Estimate& e);

// The byte figures behind the components, exposed for tests and for the advisor.
double denoiserResidentBytes(const TrainingSetup& s, const MemoryModel& m);
double trainableParams(const TrainingSetup& s);
std::int64_t imageTokens(const Architecture& arch, long width, long height, int frames);

std::string formatGiB(double bytes);  // "22.9 GiB"
std::string gib(double bytes);        // "22.9"

}  // namespace oomlint
