// From a log analysis to findings: which OOM, what the guide says to change first for its phase, and
// whether the config is even to blame. With the config the log came from, the advice names its keys.
#pragma once

#include "report/findings.h"
#include "systems/logs/log_analysis.h"

namespace oomlint {

struct TrainerProcess;

// `config` is the trainer process the log belongs to (oomlint check CONFIG --log LOG), or null.
void diagnoseLog(const LogAnalysis& log, const TrainerProcess* config, Findings& findings);

// The guide's first change for an OOM in `phase` (at `step`), in words.
std::string firstChangeFor(Phase phase, std::optional<long> step, int skippedBatches);

}  // namespace oomlint
