#include "engine/verdict_findings.h"

namespace oomlint {

namespace {

std::string describeChange(const Fix& fix) { return fix.path.toString() + " " + fix.fromJson + " → " + fix.toJson; }

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
  const std::string figures = formatGiB(peak.peakBytes) + " ± " + gib(peak.uncertaintyBytes) + " in " + std::string(toString(peak.phase)) + " on " +
                              e.gpu.describe() + (anchors.context.empty() ? "" : " " + anchors.context);
  const PlanStep* first = firstNeededStep(plan);
  const Range at = first ? anchors.verdictRange(*first) : anchors.fallback;
  const KeyPath path = first ? first->fix.path : anchors.fallbackPath;
  const std::string advice = first ? "; first needed change: " + describeChange(first->fix) : "";
  if (e.verdict == Verdict::Oom) {
    findings.report(RuleId::OL501, at, path, "estimated out of memory: " + anchors.cause + "peak " + figures + advice);
  } else {
    findings.report(RuleId::OL502, at, path, "borderline: peak " + figures + " is within the estimate's uncertainty of the card" + advice);
  }
  for (const auto& step : plan) {
    findings.report(RuleId::OL503, anchors.stepRange(step), step.fix.path,
                    "drives the peak: " + describeChange(step.fix) + " saves " +
                        formatGiB(step.savesBytes) + (step.needed ? " (needed)" : ""));
  }
}

}  // namespace oomlint
