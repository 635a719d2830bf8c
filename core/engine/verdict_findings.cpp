#include "engine/verdict_findings.h"

#include <algorithm>
#include <optional>

namespace oomlint {

namespace {

std::string describeChange(const Fix& fix) { return fix.path.toString() + " " + fix.fromJson + " → " + fix.toJson; }

// What raises the high end of the phase that reaches highest, widest first (at most two reasons).
std::string borderlineWhy(const Estimate& e) {
  const auto top = std::max_element(e.phases.begin(), e.phases.end(),
                                    [](const PhaseEstimate& a, const PhaseEstimate& b) { return a.highBytes < b.highBytes; });
  if (top == e.phases.end()) return "";
  std::vector<RangeReason> reasons = top->range;
  std::sort(reasons.begin(), reasons.end(), [](const RangeReason& a, const RangeReason& b) { return a.aboveBytes > b.aboveBytes; });
  std::string out;
  for (std::size_t i = 0; i < reasons.size() && i < 2; ++i) {
    if (reasons[i].aboveBytes <= 0) break;
    out += (i == 0 ? " (" : ", ") + reasons[i].why + " +" + gib(reasons[i].aboveBytes) + " GiB";
  }
  return out.empty() ? out : out + ")";
}

// OL506: on Windows NVIDIA's driver (536.40 on, by default) places what the card cannot hold in shared system memory
// rather than failing. The phases whose expected peak is over the card (for a borderline job, those whose range
// reaches over it) then run slower instead of stopping: once, or at every step.
void reportWindowsFallback(const Estimate& e, const WindowsEvidence& windows, Findings& findings) {
  const double card = static_cast<double>(e.gpu.vramBytes);
  const bool expectedOver = e.verdict == Verdict::Oom;
  std::string once, recurring;
  for (const auto& p : e.phases) {
    if ((expectedOver ? p.peakBytes : p.highBytes) <= card) continue;
    std::string& list = runsOnce(p.phase) ? once : recurring;
    list += (list.empty() ? "" : ", ") + std::string(toString(p.phase)) + " (" + formatGiB(p.peakBytes) + ")";
  }
  if (once.empty() && recurring.empty()) return;
  const std::string would = expectedOver ? " would" : " could";
  std::string what;
  if (!once.empty()) what += once + ", run once," + would + " be slow, not fatal";
  if (!recurring.empty()) what += (what.empty() ? "" : "; ") + recurring + would + " be slower at every step";
  findings.report(RuleId::OL506, windows.range, windows.path,
                  "the job runs on Windows (" + windows.text + "): NVIDIA's driver (536.40 on) puts what " + e.gpu.describe() +
                      " cannot hold in shared system memory (at most half the RAM) instead of failing: " + what +
                      "; \"CUDA - Sysmem Fallback Policy: Prefer No Sysmem Fallback\" gives the error instead");
}

}  // namespace

const PlanStep* firstNeededStep(const std::vector<PlanStep>& plan) {
  for (const auto& step : plan) {
    if (step.needed) return &step;
  }
  return nullptr;
}

void reportVerdict(const Estimate& e, const std::vector<PlanStep>& plan, const VerdictAnchors& anchors, Findings& findings) {
  if (e.verdict == Verdict::Fits) return;
  const PhaseEstimate& peak = e.peak();
  const std::string figures = formatRange(e) + " in " + std::string(toString(peak.phase)) + " on " +
                              e.gpu.describe() + (anchors.context.empty() ? "" : " " + anchors.context);
  const PlanStep* first = firstNeededStep(plan);
  const Range at = first ? anchors.verdictRange(*first) : anchors.fallback;
  const KeyPath path = first ? first->fix.path : anchors.fallbackPath;
  std::string advice = first ? "; first needed change: " + describeChange(first->fix) : "";
  // A job the input does not describe cannot be said to fail: the figures stand, as a warning.
  std::optional<Severity> severity;
  if (!anchors.assumed.empty()) {
    advice += "; for an assumed job (" + anchors.assumed + ")";
    severity = Severity::Warning;
  }
  if (e.verdict == Verdict::Oom) {
    findings.report(RuleId::OL501, at, path, "estimated out of memory: " + anchors.cause + "peak " + figures + advice, severity);
  } else {
    findings.report(RuleId::OL502, at, path,
                    "borderline: peak " + figures + ": the upper part of the range is over the card" + borderlineWhy(e) + advice, severity);
  }
  if (anchors.windows) reportWindowsFallback(e, *anchors.windows, findings);
  for (const auto& step : plan) {
    findings.report(RuleId::OL503, anchors.stepRange(step), step.fix.path,
                    (step.topOnly ? "lowers the range's top: " + describeChange(step.fix) + " brings it to " +
                                                   formatGiB(step.highBytesAfter)
                                             : "drives the peak: " + describeChange(step.fix) + " saves " + formatGiB(step.savesBytes)) +
                        (step.needed ? " (needed)" : ""));
  }
}

void reportHostVerdict(const HostEstimate& host, const std::vector<PlanStep>& hostPlan, const VerdictAnchors& anchors,
                       const std::string& advice, Findings& findings) {
  if (!host.verdict || *host.verdict == Verdict::Fits) return;
  const PhaseEstimate& peak = host.peak();
  const PhaseEstimate& deciding = host.deciding();
  auto phaseFigures = [&](const PhaseEstimate& phase) {
    const double mapped = phase.peakBytes - host.committedBytes(phase);
    return formatGiB(phase.peakBytes) + " ± " + gib(phase.aboveBytes()) + " in " + std::string(toString(phase.phase)) +
           (mapped > 0 ? " (" + formatGiB(mapped) + " of it the checkpoint's mapped pages)" : "");
  };
  std::string figures = phaseFigures(deciding) + " on " + host.describeRam();
  if (&deciding != &peak) figures += "; the peak is " + phaseFigures(peak);
  std::string beyond;  // what RAM cannot hold must fit the swap (Linux) or the page file (Windows)
  if (host.ramBytes) {
    const double ram = static_cast<double>(*host.ramBytes);
    const double committed = host.committedBytes(deciding);
    if (committed > ram) beyond += "; on Linux swap must hold " + formatGiB(committed - ram) + " or the OOM killer ends the run (SIGKILL, exit 137)";
    if (peak.peakBytes > ram) beyond += "; on Windows the page file must hold the " + formatGiB(peak.peakBytes - ram) + " beyond RAM (error 1455 otherwise)";
  }
  const PlanStep* first = firstNeededStep(hostPlan);
  const Range at = first ? anchors.verdictRange(*first) : anchors.fallback;
  const KeyPath path = first ? first->fix.path : anchors.fallbackPath;
  std::string tail = beyond + (first ? "; first needed change: " + describeChange(first->fix) : "");
  if (!advice.empty()) tail += "; " + advice;
  if (host.logKilled) {
    const bool counted = !host.ramBytes || host.committedBytes(deciding) > static_cast<double>(*host.ramBytes);
    std::string where;  // the phase the log names, with this estimate's figure for it
    for (const auto& phase : host.phases) {
      if (phase.phase == host.logPhase) where = " in " + std::string(toString(phase.phase)) + " (estimated " + formatGiB(phase.peakBytes) + ")";
    }
    findings.report(RuleId::OL504, at, path,
                    "the attached log's run was killed for host RAM" + where +
                        std::string(counted ? "" : ", beyond what this estimate counts (other programs, or a leak)") + ": peak " +
                        phaseFigures(peak) + " on " + host.describeRam() + tail);
  } else if (*host.verdict == Verdict::Oom) {
    findings.report(RuleId::OL504, at, path, "estimated out of host RAM: " + figures + tail);
  } else {
    const bool mappedOnly = host.ramBytes && host.committedBytes(deciding) + deciding.aboveBytes() < static_cast<double>(*host.ramBytes);
    findings.report(RuleId::OL505, at, path,
                    "borderline host RAM: " + figures +
                        (mappedOnly ? ", over the RAM only by mapped pages that Linux can drop and re-read (slowly)"
                                    : ", within the estimate's uncertainty of the RAM") + tail);
  }
}

}  // namespace oomlint
