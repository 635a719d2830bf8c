#include "engine/estimate_core.h"

#include <algorithm>
#include <array>

namespace oomlint {

namespace {

// The share of a component's bytes its coefficient is uncertain by, and how that source is named.
struct TermShare {
  double below;
  double above;
  const char* what;
};

TermShare shareOf(Term term, const MemoryModel& m) {
  switch (term) {
    case Term::Fixed: return {m.uncertaintyFixedFraction, m.uncertaintyFixedFraction, "CUDA context and workspaces"};
    case Term::Weights: return {m.uncertaintyWeights, m.uncertaintyWeights, "weight sizes"};
    case Term::Trainable: return {m.uncertaintyTrainable, m.uncertaintyTrainable, "trainable state"};
    case Term::Activations: return {m.uncertaintyActivations, m.uncertaintyActivations, "activation coefficients"};
    case Term::ActivationsMeasuredOnGpu:
      return {m.uncertaintyActivationsMeasuredOnGpu, m.uncertaintyActivationsMeasuredOnGpu, "activation coefficients measured on a GPU"};
    case Term::ActivationsUnmeasured:
      return {m.uncertaintyActivationsUnmeasured, m.uncertaintyActivationsUnmeasured, "activation coefficients not measured for this block"};
    case Term::Vae: return {m.uncertaintyVae, m.uncertaintyVaeAbove, "VAE working memory"};
    case Term::VaeFloor: return {0, m.uncertaintyVaeAbove, "VAE working memory (its structure: a floor)"};
    case Term::Budget: return {0, 0, ""};
  }
  return {0, 0, ""};
}

}  // namespace

void totalPhase(PhaseEstimate& phase, const MemoryModel& m, bool coarse, Detail detail) {
  const bool explain = detail == Detail::Explained;
  phase.peakBytes = 0;
  phase.range.clear();
  constexpr std::array kTerms = {Term::Weights, Term::Trainable, Term::Activations, Term::ActivationsMeasuredOnGpu,
                                 Term::ActivationsUnmeasured, Term::Vae, Term::VaeFloor, Term::Fixed, Term::Budget};
  std::array<double, kTerms.size()> termBytes{};
  phase.range.reserve(kTerms.size() + 3);  // a reason per term, the coarse one and the alternatives widenWith adds
  for (const auto& c : phase.components) {
    phase.peakBytes += c.bytes;
    termBytes[static_cast<std::size_t>(std::find(kTerms.begin(), kTerms.end(), c.term) - kTerms.begin())] += c.bytes;
  }
  for (std::size_t i = 0; i < kTerms.size(); ++i) {
    const TermShare share = shareOf(kTerms[i], m);
    if (termBytes[i] <= 0 || share.below + share.above <= 0) continue;
    std::string why;
    if (explain) {
      why = std::string(share.what) + (share.below == share.above
                                           ? " ±" + fixedText(share.below * 100, 0) + "%"
                                           : " −" + fixedText(share.below * 100, 0) + "%/+" + fixedText(share.above * 100, 0) + "%");
    }
    phase.range.push_back({std::move(why), termBytes[i] * share.below, termBytes[i] * share.above});
  }
  if (coarse) {
    const double bytes = phase.peakBytes * m.uncertaintyCoarseExtra;
    std::string why = explain ? "approximate model dimensions ±" + fixedText(m.uncertaintyCoarseExtra * 100, 0) + "%" : "";
    phase.range.push_back({std::move(why), bytes, bytes});
  }
  phase.lowBytes = phase.highBytes = phase.peakBytes;
  for (const auto& r : phase.range) {
    phase.lowBytes -= r.belowBytes;
    phase.highBytes += r.aboveBytes;
  }
  phase.lowBytes = std::max(0.0, phase.lowBytes);
}

void widenWith(Estimate& e, const Estimate& alternative, const std::string& why) {
  for (auto& phase : e.phases) {
    const auto other = std::find_if(alternative.phases.begin(), alternative.phases.end(),
                                    [&](const PhaseEstimate& p) { return p.phase == phase.phase; });
    if (other == alternative.phases.end()) continue;
    const double below = std::max(0.0, phase.lowBytes - other->lowBytes);
    const double above = std::max(0.0, other->highBytes - phase.highBytes);
    if (below <= 0 && above <= 0) continue;
    phase.lowBytes -= below;
    phase.highBytes += above;
    phase.range.push_back({why, below, above});
  }
}

void concludeEstimate(Estimate& e) {
  e.peakPhase = 0;
  for (std::size_t i = 1; i < e.phases.size(); ++i) {
    if (e.phases[i].peakBytes > e.phases[e.peakPhase].peakBytes) e.peakPhase = i;
  }
  e.lowBytes = e.highBytes = 0;
  for (const auto& phase : e.phases) {
    e.lowBytes = std::max(e.lowBytes, phase.lowBytes);
    e.highBytes = std::max(e.highBytes, phase.highBytes);
  }
  // Out of memory when the expected peak is over the card; fits when even the high end of every phase
  // is under it; borderline when only the upper part of the range is over (docs/estimate.md).
  const double vram = static_cast<double>(e.gpu.vramBytes);
  if (e.peak().peakBytes > vram) e.verdict = Verdict::Oom;
  else if (e.highBytes > vram) e.verdict = Verdict::Borderline;
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
      if (h.committedBytes(h.phases[i]) + h.phases[i].aboveBytes() >= ram) {
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
  const WeightFormat* f = m.format(qtypeFormat(qtype));
  const double keep = f ? f->fullPrecisionFraction : 0.05;
  return keep * kBf16 + (1 - keep) * (f ? f->bytesPerParam : 1.0);
}

Vol2col vol2colPerPixel(int channels, int temporal, int frames) {
  const int chunk = frames > 1 ? std::max(1, std::min(temporal, frames - 1)) : 1;
  return {channels * 27.0 * chunk, channels * (4.0 * chunk + 2)};
}

long latentFrames(const Vae& vae, int frames) { return frames > 1 ? (frames - 1) / std::max(1, vae.temporal) + 1 : 1; }

std::int64_t imageTokens(const Architecture& arch, long width, long height, int frames) {
  const long step = static_cast<long>(arch.vae.spatial) * std::max(1, arch.denoiser.patch);
  const long gw = std::max(1L, width / step);
  const long gh = std::max(1L, height / step);
  return static_cast<std::int64_t>(gw) * gh * latentFrames(arch.vae, frames);
}

std::string paramsText(double p) {
  if (p >= 1e9) return fixedText(p / 1e9, 2) + " B params";
  if (p >= 1e6) return fixedText(p / 1e6, 1) + " M params";
  return fixedText(p / 1e3, 0) + " k params";
}

}  // namespace oomlint
