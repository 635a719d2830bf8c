#include "format/summary.h"

#include <algorithm>
#include <cmath>

#include "base/knowledge/knowledge.h"

namespace oomlint {

std::string estimateSummary(const FileReport& file) {
  if (!file.estimate) return {};
  const Estimate& e = *file.estimate;
  const PhaseEstimate& peak = e.peak();
  std::string out = "estimate on " + e.gpu.describe() + (file.gpuGiven ? "" : ", the default card") + ": peak " +
                    formatRange(e) + " in " + std::string(toString(peak.phase)) + " — " +
                    std::string(toString(e.verdict));
  if (e.coarse) out += " (coarse)";
  return out;
}

std::string hostSummary(const FileReport& file) {
  if (!file.estimate || !file.estimate->host) return {};
  const HostEstimate& h = *file.estimate->host;
  const PhaseEstimate& peak = h.peak();
  std::string out = "host RAM" + std::string(h.ramBytes ? " on " + h.describeRam() : "") + ": peak " + formatGiB(peak.peakBytes) + " ± " +
                    formatGiB(peak.aboveBytes()) + " in " + std::string(toString(peak.phase)) + " — " + std::string(toString(h.verdict));
  if (h.logKilled) out += " (the attached log's run was killed for host RAM)";
  else if (!h.ramBytes) out += " (give --ram GIB for a verdict)";
  return out;
}

std::string ruleLabel(RuleId code) { return std::string(toString(code)) + " " + std::string(ruleName(code)); }

std::int64_t byteCount(double bytes) {
  constexpr double kMax = 9.2e18;  // just under INT64_MAX, exactly representable
  if (!(bytes == bytes)) return 0;  // NaN
  const double clamped = std::clamp(bytes, -kMax, kMax);
  return static_cast<std::int64_t>(std::llround(clamped));
}

}  // namespace oomlint
