#include "engine/estimate_core.h"

#include <algorithm>

namespace oomlint {

void totalPhase(PhaseEstimate& phase, const MemoryModel& m, bool coarse) {
  for (const auto& c : phase.components) {
    phase.peakBytes += c.bytes;
    switch (c.term) {
      case Term::Fixed: phase.uncertaintyBytes += c.bytes * m.uncertaintyFixedFraction; break;
      case Term::Weights: phase.uncertaintyBytes += c.bytes * m.uncertaintyWeights; break;
      case Term::Trainable: phase.uncertaintyBytes += c.bytes * m.uncertaintyTrainable; break;
      case Term::Activations: phase.uncertaintyBytes += c.bytes * m.uncertaintyActivations; break;
      case Term::Vae: phase.uncertaintyBytes += c.bytes * m.uncertaintyVae; break;
    }
  }
  if (coarse) phase.uncertaintyBytes += phase.peakBytes * m.uncertaintyCoarseExtra;
}

void concludeEstimate(Estimate& e) {
  e.peakPhase = 0;
  for (std::size_t i = 1; i < e.phases.size(); ++i) {
    if (e.phases[i].peakBytes > e.phases[e.peakPhase].peakBytes) e.peakPhase = i;
  }
  const PhaseEstimate& peak = e.peak();
  const double vram = static_cast<double>(e.gpu.vramBytes);
  if (peak.peakBytes > vram) e.verdict = Verdict::Oom;
  else if (vram - peak.peakBytes <= peak.uncertaintyBytes) e.verdict = Verdict::Borderline;
  else e.verdict = Verdict::Fits;
}

std::int64_t imageTokens(const Architecture& arch, long width, long height, int frames) {
  const long step = static_cast<long>(arch.vae.spatial) * std::max(1, arch.denoiser.patch);
  const long gw = std::max(1L, width / step);
  const long gh = std::max(1L, height / step);
  const long latentFrames = frames > 1 ? (frames - 1) / std::max(1, arch.vae.temporal) + 1 : 1;
  return static_cast<std::int64_t>(gw) * gh * latentFrames;
}

std::string paramsText(double p) {
  if (p >= 1e9) return fixedText(p / 1e9, 2) + " B params";
  if (p >= 1e6) return fixedText(p / 1e6, 1) + " M params";
  return fixedText(p / 1e3, 0) + " k params";
}

}  // namespace oomlint
