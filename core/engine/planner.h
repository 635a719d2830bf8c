// What both systems' rollback plans share: a lever (one config change and what it does to the setup),
// the step it becomes, and which steps are needed. Each system orders its own levers (the guide's order
// in its own settings); what "saves", "fits after" and "needed" mean is decided here, once.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "report/estimate.h"
#include "report/plan_step.h"

namespace oomlint {

template <class Setup>
struct Lever {
  Lever(KeyPath path, std::string fromJson, std::string toJson, std::string why, std::function<void(Setup&)> apply)
      : fix(std::move(path), std::move(fromJson), std::move(toJson)), why(std::move(why)), apply(std::move(apply)) {}

  Fix fix;  // the change (its edits where the system knows them already; else placed from the document)
  std::string why;
  std::function<void(Setup&)> apply;  // what the change does to the setup the estimate reads
};

// The plan step a lever became: `before` is the peak it was taken at, `after` the estimate with it applied.
template <class Setup>
PlanStep planStep(const Lever<Setup>& lever, double before, const Estimate& after) {
  PlanStep step;
  step.fix = lever.fix;
  step.savesBytes = before - after.peak().peakBytes;
  step.peakBytesAfter = after.peak().peakBytes;
  step.highBytesAfter = after.highBytes;
  step.fitsAfter = after.verdict == Verdict::Fits;
  step.why = lever.why;
  return step;
}

// Ranks the steps and marks the needed ones: the smallest subset that fits (`fitsWith` says whether the
// setup with those steps applied, in plan order, fits), the earliest on a tie, since the guide orders
// the steps cheapest in quality first. When no subset fits, or the plan is too long to search, every
// step is needed: the user needs all of them (and, when none fits, more).
void markNeededSteps(std::vector<PlanStep>& steps, const std::function<bool(const std::vector<std::size_t>&)>& fitsWith);

}  // namespace oomlint
