// A suspected OOM: the marks an out-of-memory failure leaves when nothing prints its message (a kill by
// SIGKILL, a process gone silently mid-stage, a cache step failing on some inputs), and the evidence the
// report gives for it. A suspicion is never an OOM: the analysis keeps `oom` false and says what it
// rests on.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/ids.h"
#include "report/log_analysis.h"

namespace oomlint {

// A line of the log as evidence (the line trimmed and cut as the analysis keeps lines).
LogEvidence evidenceAt(std::uint64_t line, std::string_view text, std::string why);

// The stage the run had announced when a suspected failure struck (on the line being read), as evidence;
// none before any stage, or when that line itself announced it.
std::optional<LogEvidence> stageEvidence(const LogAnalysis& sofar);

// A wrapper's report that the run's process ended without a message (a job runner's exit, a launcher's
// pause), with what the run had shown by then.
struct SilentExitSeen {
  std::uint64_t line = 0;  // 0: none seen
  std::string text;
  std::string why;
  std::optional<Phase> stage;  // the stage the run had announced
  std::optional<long> step;    // the training step, in training
  bool trainingDone = false;   // the training bar had reached its total
  std::optional<LogEvidence> stageEvidence;
};

// A silent exit is an OOM's mark only when the run stopped mid-stage (a stage announced and training
// not finished) and printed no error: a run that ends normally, or of an error, exits the same way.
// Then `result` becomes that suspicion (host RAM, the OOM killer's usual victim).
void suspectSilentExit(const SilentExitSeen& exit, LogAnalysis& result);

// A line that marks an OOM only where the run then died of an error (PyTorch's expandable_segments mapping
// warning, which a run often survives by freeing its cache): its kind, the figures it prints, the stage then.
struct FailureMarkSeen {
  std::uint64_t line = 0;  // 0: none seen
  std::string text;
  std::string why;
  OomKind kind = OomKind::CudaAlloc;
  OomNumbers numbers;
  std::optional<Phase> stage;
  std::optional<LogEvidence> stageEvidence;
};

// The mark becomes the suspicion when the log ends with a run that died of an error (`result.failure`) and
// printed no OOM.
void suspectMarkedFailure(const FailureMarkSeen& mark, LogAnalysis& result);

}  // namespace oomlint
