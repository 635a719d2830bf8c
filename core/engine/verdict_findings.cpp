#include "engine/verdict_findings.h"

#include <algorithm>

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
  const std::string advice = first ? "; first needed change: " + describeChange(first->fix) : "";
  if (e.verdict == Verdict::Oom) {
    findings.report(RuleId::OL501, at, path, "estimated out of memory: " + anchors.cause + "peak " + figures + advice);
  } else {
    findings.report(RuleId::OL502, at, path, "borderline: peak " + figures + ": the upper part of the range is over the card" + borderlineWhy(e) + advice);
  }
  for (const auto& step : plan) {
    findings.report(RuleId::OL503, anchors.stepRange(step), step.fix.path,
                    "drives the peak: " + describeChange(step.fix) + " saves " +
                        formatGiB(step.savesBytes) + (step.needed ? " (needed)" : ""));
  }
}

}  // namespace oomlint
