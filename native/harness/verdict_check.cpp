#include "measurement.h"

namespace oomlint::harness {

bool agrees(Expectation expect, bool ran) {
  switch (expect) {
    case Expectation::Fits:
      return ran;
    case Expectation::Oom:
      return !ran;
    case Expectation::Either:
      return true;
  }
  return false;
}

std::vector<CapOutcome> compareWithCap(const CapPlan& cap, const std::vector<PhaseMeasurement>& phases) {
  std::vector<CapOutcome> outcomes;
  for (const auto& expected : cap.phases) {
    for (const auto& measured : phases) {
      if (measured.phase != expected.phase) continue;
      // A failure other than running out of memory says nothing about the verdict: it never agrees.
      const bool ran = measured.ran;
      const bool counted = ran || measured.outOfMemory;
      outcomes.push_back({expected.phase, expected.expect, ran, measured.failure, counted && agrees(expected.expect, ran)});
    }
  }
  return outcomes;
}

}  // namespace oomlint::harness
