// The calibration cases (../shared/calibration/cases.yaml) as the harness runs them: a config and the
// card its published claim is about (see native/calibrate/main.cpp for the estimate-only report).
#pragma once

#include <string>
#include <vector>

namespace oomlint::harness {

struct CalibrationCase {
  std::string id;
  std::string config;  // resolved against the cases file's folder
  double gpuGib = 80;  // the card the published figure is about (80 when unknown)
  std::string expect;  // peak | fits | oom | borderline
  std::string phase;   // the phase the figure is about; empty: the overall peak
};

// `folder` is where the cases file lies; an unreadable list gives no cases and a message in `error`.
std::vector<CalibrationCase> readCalibrationCases(const std::string& text, const std::string& folder, std::string* error);

}  // namespace oomlint::harness
