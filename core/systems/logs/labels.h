// Compares a log analysis with a manifest label (the corpus's `manifest.yaml` entries: oom, kind,
// phase, step, gpu_state_suspect, numbers). Shared by the corpus report and the fixture tests.
// `oom: true | false | suspected`: an OOM is found when the analysis reports it certain or suspected
// (`oom`, what precision and recall count); `certainty` holds only when it says which the label says.
#pragma once

#include <string>

#include "base/document/node.h"
#include "systems/logs/log_analysis.h"

namespace oomlint {

struct LabelComparison {
  bool oomLabel = false;       // the label says an OOM, certain or suspected
  bool suspectedLabel = false;  // the label says `suspected`
  bool certainty = false;       // reported certain for `true`, suspected for `suspected`, neither for `false`
  bool oom = false, kind = false, phase = false, step = false, gpuState = false, numbers = false;
  bool tool = false;  // the generation UI named (a1111, forge, comfyui), or none for every other tool
  std::string differences;  // "phase sample/baseline_sample free=-/1024 …" (got/expected)
  std::string labelError;   // the label itself is wrong (a phase id oomlint does not know): not a miss of the scanner
  bool all() const { return labelError.empty() && oom && certainty && kind && phase && step && gpuState && numbers && tool; }
};

LabelComparison compareWithLabel(const LogAnalysis& analysis, const Node* label);

}  // namespace oomlint
