#include "report/estimate.h"

#include <cmath>

namespace oomlint {

std::string_view toString(Verdict verdict) {
  switch (verdict) {
    case Verdict::Fits: return "fits";
    case Verdict::Borderline: return "borderline";
    case Verdict::Oom: return "oom";
  }
  return "fits";
}

std::string_view toString(const std::optional<Verdict>& verdict) { return verdict ? toString(*verdict) : "unknown"; }

double HostEstimate::committedBytes(const PhaseEstimate& phase) const {
  double mapped = 0;
  for (const auto& c : phase.components) {
    if (c.fileBacked) mapped += c.bytes;
  }
  return phase.peakBytes - mapped;
}

std::string HostEstimate::describeRam() const {
  if (!ramBytes) return "a machine of unknown RAM";
  const double g = static_cast<double>(*ramBytes) / kGiB;
  return "a " + fixedText(g, g == static_cast<double>(static_cast<long long>(g)) ? 0 : 1) + " GiB machine";
}

std::string gib(double bytes) { return fixedText(bytes / kGiB, 1); }

std::string formatGiB(double bytes) { return gib(bytes) + " GiB"; }

namespace {
std::string rangeText(double expected, double low, double high) {
  return formatGiB(expected) + " (" + gib(low) + "–" + gib(high) + ")";
}
}  // namespace

std::string formatRange(const PhaseEstimate& phase) { return rangeText(phase.peakBytes, phase.lowBytes, phase.highBytes); }

std::string formatRange(const Estimate& e) { return rangeText(e.peak().peakBytes, e.lowBytes, e.highBytes); }

std::string GpuTarget::describe() const {
  if (name.ends_with("GiB")) return "a " + name + " card";
  return name + " (" + formatGiB(static_cast<double>(vramBytes)) + (memoryGiven ? ", as given)" : ")");
}

}  // namespace oomlint
