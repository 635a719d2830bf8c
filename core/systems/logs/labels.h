// Compares a log analysis with a manifest label (the corpus's `manifest.yaml` entries: oom, kind,
// phase, step, gpu_state_suspect, numbers). Shared by the corpus report and the fixture tests.
#pragma once

#include <string>

#include "base/document/node.h"
#include "systems/logs/log_analysis.h"

namespace oomlint {

struct LabelComparison {
  bool oomLabel = false;
  bool oom = false, kind = false, phase = false, step = false, gpuState = false, numbers = false;
  bool tool = false;  // the generation UI named (a1111, forge, comfyui), or none for every other tool
  std::string differences;  // "phase sample/baseline_sample free=-/1024 …" (got/expected)
  std::string labelError;   // the label itself is wrong (a phase id oomlint does not know): not a miss of the scanner
  bool all() const { return labelError.empty() && oom && kind && phase && step && gpuState && numbers && tool; }
};

LabelComparison compareWithLabel(const LogAnalysis& analysis, const Node* label);

}  // namespace oomlint
