// The estimate's findings, shared by every input kind: OL501 (out of memory) or OL502 (borderline) at
// the first needed plan step, naming it, and an OL503 at each plan step's setting. The caller says
// where things are in its own input, and whether the job was assumed.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/windows_evidence.h"
#include "report/estimate.h"
#include "report/findings.h"
#include "report/plan_step.h"

namespace oomlint {

// Where a system's verdict findings go, and what their messages add. Every field has a default: a system
// names the ones it sets (designated initializers).
struct VerdictAnchors {
  Range fallback{};                                      // where OL501/OL502 go when no step is needed
  KeyPath fallbackPath{};                                // and their key path then
  std::function<Range(const PlanStep&)> stepRange{};     // where a step's setting is written (OL503)
  std::function<Range(const PlanStep&)> verdictRange{};  // where OL501/OL502 go for the first needed step
  std::string context{};  // appended to the figures ("(Forge, SDXL 1024×1024)"), may be empty
  std::string cause{};    // why it is out of memory when the peak alone does not say ("split attention …; ")
  std::string assumed{};  // non-empty when the input does not describe the job and the estimate is for one
                          // assumed in its place (why): the verdict is then a warning, not an error
  std::optional<WindowsEvidence> windows{};  // the job runs on Windows: OL506 beside OL501/OL502
};

const PlanStep* firstNeededStep(const std::vector<PlanStep>& plan);

void reportVerdict(const Estimate& e, const std::vector<PlanStep>& plan, const VerdictAnchors& anchors, Findings& findings);

// OL504 (out of host RAM) or OL505 (borderline) for a host estimate whose verdict is not fits, at the first
// needed step of its plan (anchors.verdictRange) or the fallback. `advice` ends the message (what the
// figures leave out, a system's own hint), may be empty.
void reportHostVerdict(const HostEstimate& host, const std::vector<PlanStep>& hostPlan, const VerdictAnchors& anchors,
                       const std::string& advice, Findings& findings);

}  // namespace oomlint
