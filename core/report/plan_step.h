// One step of a rollback plan, as every system's planner makes it and every front end shows it.
#pragma once

#include <optional>
#include <string>

#include "base/text/source_text.h"

namespace oomlint {

struct PlanStep {
  int rank = 0;
  std::string path;
  std::string fromJson;
  std::string toJson;
  double savesBytes = 0;      // negative for a ramp-up step (it adds memory)
  double peakBytesAfter = 0;  // cumulative: with every earlier step applied too
  bool fitsAfter = false;
  bool needed = false;
  bool rampUp = false;
  std::string why;
  // The step written into the config text: replace `edit->range` by `edit->text` (absent when the
  // config has no section to put it in). Positions refer to the text the plan was made from.
  struct Edit {
    Range range;
    std::string text;
  };
  std::optional<Edit> edit;
};

}  // namespace oomlint
