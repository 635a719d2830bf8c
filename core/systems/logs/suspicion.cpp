#include "systems/logs/suspicion.h"

#include "systems/logs/line_text.h"

namespace oomlint {

LogEvidence evidenceAt(std::uint64_t line, std::string_view text, std::string why) {
  return {static_cast<int>(line), std::string(trimmed(text).substr(0, 400)), std::move(why)};
}

std::optional<LogEvidence> stageEvidence(const LogAnalysis& sofar) {
  // None before any stage, nor when the mark itself announced it (its own evidence says so).
  if (sofar.reachedLine == 0 || static_cast<std::uint64_t>(sofar.reachedLine) == sofar.lines) return std::nullopt;
  return evidenceAt(static_cast<std::uint64_t>(sofar.reachedLine), sofar.reachedText,
                    "the last stage the run announced: " + std::string(toString(sofar.reached)));
}

void suspectMarkedFailure(const FailureMarkSeen& mark, LogAnalysis& result) {
  if (mark.line == 0 || result.oom || result.suspected || result.failure.empty()) return;
  result.suspected = true;
  result.kind = mark.kind;
  result.phase = mark.stage.value_or(Phase::Unknown);
  result.numbers = mark.numbers;
  result.oomLine = static_cast<int>(mark.line);
  result.oomText = std::string(trimmed(mark.text).substr(0, 400));
  result.evidence = {evidenceAt(mark.line, mark.text, mark.why + "; the run then died of an error: " + result.failure.substr(0, 200))};
  if (mark.stageEvidence) result.evidence.push_back(*mark.stageEvidence);
}

void suspectSilentExit(const SilentExitSeen& exit, LogAnalysis& result) {
  if (exit.line == 0 || result.oom || result.suspected || !result.failure.empty() || !exit.stage || exit.trainingDone) return;
  result.suspected = true;
  result.kind = OomKind::HostRam;
  result.phase = *exit.stage;
  result.step = exit.stage == Phase::TrainStep ? exit.step : std::nullopt;
  result.oomLine = static_cast<int>(exit.line);
  result.oomText = std::string(trimmed(exit.text).substr(0, 400));
  result.evidence = {evidenceAt(exit.line, exit.text, exit.why)};
  if (exit.stageEvidence) result.evidence.push_back(*exit.stageEvidence);
}

}  // namespace oomlint
