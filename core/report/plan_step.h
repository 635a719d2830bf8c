// One step of a rollback plan, as every system's planner makes it and every front end shows it.
#pragma once

#include <string>

#include "report/fix.h"

namespace oomlint {

struct PlanStep {
  int rank = 0;
  Fix fix;                    // the change, with its edit in the input's text where it has a place
  double savesBytes = 0;      // negative for a ramp-up step (it adds memory)
  double peakBytesAfter = 0;  // cumulative: with every earlier step applied too
  bool fitsAfter = false;
  bool needed = false;
  bool rampUp = false;
  std::string why;
};

}  // namespace oomlint
