// One step of a rollback plan, as every system's planner makes it and every front end shows it.
#pragma once

#include <string>

#include "report/fix.h"

namespace oomlint {

// A change must save at least this much to be listed: below it, it is rounding, not a lever.
inline constexpr double kMinPlanSaving = 32.0 * 1024 * 1024;

struct PlanStep {
  int rank = 0;
  Fix fix;                    // the change, with its edit in the input's text where it has a place
  double savesBytes = 0;      // negative for a ramp-up step (it adds memory)
  double peakBytesAfter = 0;  // cumulative: with every earlier step applied too
  double highBytesAfter = 0;  // the range's top after it, cumulative; 0 where the planner has no range
  bool fitsAfter = false;
  bool needed = false;
  bool rampUp = false;
  bool topOnly = false;       // listed for the range's top alone: a borderline verdict's step that leaves the peak
  std::string why;
};

}  // namespace oomlint
