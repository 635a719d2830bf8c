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

void concludeHostEstimate(HostEstimate& h) {
  h.peakPhase = 0;
  std::size_t mostCommitted = 0;
  for (std::size_t i = 1; i < h.phases.size(); ++i) {
    if (h.phases[i].peakBytes > h.phases[h.peakPhase].peakBytes) h.peakPhase = i;
    if (h.committedBytes(h.phases[i]) > h.committedBytes(h.phases[mostCommitted])) mostCommitted = i;
  }
  h.verdictPhase = h.peakPhase;
  if (!h.ramBytes) {
    h.verdict = h.logKilled ? std::optional(Verdict::Oom) : std::nullopt;
    return;
  }
  const double ram = static_cast<double>(*h.ramBytes);
  const PhaseEstimate& committed = h.phases[mostCommitted];
  Verdict verdict = Verdict::Fits;
  if (h.committedBytes(committed) > ram) {
    verdict = Verdict::Oom;
    h.verdictPhase = mostCommitted;
  } else {
    for (std::size_t i = 0; i < h.phases.size(); ++i) {
      if (h.committedBytes(h.phases[i]) + h.phases[i].uncertaintyBytes >= ram) {
        verdict = Verdict::Borderline;
        h.verdictPhase = i;
        break;
      }
    }
    if (verdict == Verdict::Fits && h.peak().peakBytes > ram) verdict = Verdict::Borderline;  // only by mapped pages
  }
  h.verdict = h.logKilled ? Verdict::Oom : verdict;
}

double dtypeBytesPerParam(const MemoryModel& m, const std::string& dtype) {
  const WeightFormat* f = m.format(dtype.empty() ? "fp32" : dtype);
  return f ? f->bytesPerParam : 4.0;
}

double quantizedBytesPerParam(const MemoryModel& m, const std::string& qtype) {
  constexpr double kBf16 = 2.0;  // what a quantizer leaves unconverted stays bf16
  const std::string bare = qtype.substr(0, qtype.find('|'));
  const WeightFormat* f = m.format(bare.empty() ? "qfloat8" : bare);
  const double keep = f ? f->fullPrecisionFraction : 0.05;
  return keep * kBf16 + (1 - keep) * (f ? f->bytesPerParam : 1.0);
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
