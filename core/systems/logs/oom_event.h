// Where a run was when it failed: the evidence around the OOM message (or the mark of a suspected one)
// that the scanner collects, and the phase and step it resolves to. The traceback printed before the
// message says which operation failed; a tool's own words beside it ("Could not save model") say what
// failed; the stage markers say where the run had got to. A tool that prints the error first prints the
// traceback after it, and tqdm redraws the bar it interrupted as the exception unwinds: what follows the
// message speaks too, when nothing before it did.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>

#include "base/ids.h"
#include "base/knowledge/logs.h"

namespace oomlint {

class OomEvent {
 public:
  // What the scanner knew when it read the message.
  struct Before {
    std::optional<Phase> traceback;       // the phase of the traceback's strongest frame
    std::optional<Phase> marker;          // the stage markers'
    std::optional<long> step;             // the training step being run
    std::optional<long> announcedStep;    // "Saving at step N", and the phase that announced it
    std::optional<Phase> announcedPhase;
  };

  // A message at `line`; `recentStage` is a tool's failed-stage line read up to kNear lines before it.
  void start(std::uint64_t line, const Before& before, std::optional<Phase> recentStage);
  // A repeat of the message without its traceback ("Error running job: …"): keeps the one before.
  void keepTraceback(std::optional<Phase> previous) { if (!before_.traceback) before_.traceback = previous; }
  std::optional<Phase> tracebackPhase() const { return before_.traceback; }

  // The message went on over the next line (a hard-wrapped paste): "after it" starts below that.
  void extendTo(std::uint64_t line) { line_ = line; }

  // What the log prints after the message: a tool's failed-stage words up to kNear lines after it, a traceback
  // up to kTracebackAfter (the except block that printed the error, or the paste a report puts below its quote
  // of the message, a sentence and blank lines between), a redrawn bar whenever it comes.
  void onFailedStage(Phase phase, std::uint64_t line);
  void onTracebackHeader(std::uint64_t line) { tracebackAfterOpen_ = line_ != 0 && line > line_ && line <= line_ + kTracebackAfter; }
  bool wantsTraceback() const { return tracebackAfterOpen_; }
  void onTracebackFrames(std::optional<Phase> phase) { if (tracebackAfterOpen_ && phase) tracebackAfter_ = phase; }
  // Inline: it runs on every redraw of every bar.
  void onBar(BarKind kind, long step) {
    if (line_ == 0 || barAfter_) return;
    barAfter_ = kind;
    barStepAfter_ = step;
  }

  struct Resolved {
    Phase phase = Phase::Unknown;
    std::optional<long> step;
  };
  // `aiToolkit`: AI Toolkit samples at the step its bar reached. `generationUi`: a generation UI wrote the
  // log and it trained nothing, so a failure nothing else places happened generating.
  Resolved resolve(bool aiToolkit, bool generationUi) const;

  static constexpr std::uint64_t kNear = 3;  // lines between a tool's failed-stage words and the error
  static constexpr std::uint64_t kTracebackAfter = 10;  // lines from the message to a traceback that belongs to it

 private:
  std::uint64_t line_ = 0;
  Before before_;
  std::optional<Phase> stage_;
  std::optional<Phase> tracebackAfter_;
  bool tracebackAfterOpen_ = false;
  std::optional<BarKind> barAfter_;
  std::optional<long> barStepAfter_;
};

}  // namespace oomlint
