// How oomlint advises (rules/advice.yaml): the steps its plans move a setting by and the cut-offs of
// its reports, kept as cited data rather than literals in the planner and the formatters.
#pragma once

#include <vector>

namespace oomlint {

struct Advice {
  std::vector<int> lowerResolutions;  // the rollback plan's bucket steps, ascending
  std::vector<int> raiseResolutions;  // the ramp-up's bucket steps, ascending
  double logDisagreementFraction = 0;  // OL607: the estimate stays under this share of the card
  double negligibleBytes = 0;          // a peak change below this is reported as none

  // The largest lower step under `resolution`, or 0 when there is none.
  int stepBelow(int resolution) const {
    int best = 0;
    for (int r : lowerResolutions) {
      if (r < resolution && r > best) best = r;
    }
    return best;
  }
  // The smallest raise step above `resolution`, or 0 when there is none.
  int stepAbove(int resolution) const {
    int best = 0;
    for (int r : raiseResolutions) {
      if (r > resolution && (best == 0 || r < best)) best = r;
    }
    return best;
  }
};

// Each struct's fields, for the rules compiler's tables (knowledge_tape.h): a field left out of
// its list is not compiled in, and reads as its default at run time.
template <class V> void fields(V& v, Advice& x) { v(x.lowerResolutions, x.raiseResolutions, x.logDisagreementFraction, x.negligibleBytes); }

}  // namespace oomlint
