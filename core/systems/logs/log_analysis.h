// Console logs of training and generation runs: what ran out, where, and whether the config is to
// blame. The scanner takes the log in chunks (a gigabyte log never sits in memory whole) and keeps
// only what the diagnosis needs: the last OOM message and its numbers, the phase and step it hit.
// The text it looks for is data (rules/logs.yaml, loaded as LogMarkers), given to it by its caller.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/knowledge/logs.h"
#include "report/log_analysis.h"
#include "systems/logs/oom_event.h"
#include "systems/logs/suspicion.h"
#include "systems/logs/traceback.h"
#include "systems/logs/wrapped_message.h"

namespace oomlint {

class LogScanner {
 public:
  // A training log is mostly redraws of one progress bar. Shortcut: a redraw that differs from the bar
  // line before it only in digits past the description is taken as that bar at another step, without
  // parsing it again. LineByLine parses every line; tests and the fuzzer check both give one answer.
  enum class Redraws { Shortcut, LineByLine };
  explicit LogScanner(const LogMarkers& markers, Redraws redraws = Redraws::Shortcut)
      : markers_(markers), redraws_(redraws), traceback_(markers), trainerRank_(markers.trainerSigns.size()), toolRank_(markers.toolSigns.size()) {}

  void feed(std::string_view chunk);
  LogAnalysis finish();

 private:
  // One line: the steps below, in order.
  void onLine(std::string_view raw);
  bool onRedraw(std::string_view raw);
  void readLine(std::string_view raw, std::string_view line, bool asRead);
  bool readContinuation(std::string_view line);
  void readAllocationTableRow(std::string_view line);
  std::optional<std::string_view> readBar(std::string_view raw, std::string_view line, bool asRead);
  void readTraceback(std::string_view raw, std::string_view line);
  void detectTool(std::string_view line);
  void readLaunchArgs(std::string_view line);
  void readComfyStart(std::string_view line);
  void readOffload(std::string_view line);
  void readMarker(std::string_view line);
  void applyMarker(const PhaseMarker& marker, std::string_view line);
  void readFailedStage(std::string_view line);
  bool readOomMessage(std::string_view line);
  void readSilentExit(std::string_view line);
  void readFailure(std::string_view line);

  void setStage(Phase phase, std::string_view line, bool restated = false);
  void onBar(std::string_view line, std::string_view description, long step);
  void onBarStep(std::string_view line, long step);
  void onTrainingStep(long step);
  const BarWords* matchBar(std::string_view description) const;
  void nameTool(std::string_view tool);
  void startEvent(std::string_view line, const OomMessage& message);
  void onOomText(std::string_view line, OomKind kind);
  void onSuspectedText(std::string_view line, const OomMessage& message, OomKind kind);

  static constexpr std::size_t kMaxRedrawnLine = 1024;  // a bar line is about 100 bytes
  struct RedrawnBar {
    std::string line;                // the bar line as read; empty when the last line was not one
    std::size_t descriptionEnd = 0;  // a redraw's digits must match before this offset
    std::size_t stepAt = 0;          // the offset of the step's digits
    std::size_t totalAt = 0;         // and of the total's: a redraw counts to the same total
    std::size_t totalDigits = 0;
  };

  const LogMarkers& markers_;
  Redraws redraws_;
  RedrawnBar redrawn_;
  LiteralSet::Found words_;      // the per-line words (LogMarkers::lineWords) of the line being read
  LogAnalysis result_;
  std::string pending_;          // a line split across chunks (bounded)
  bool lastWasCr_ = false;
  const char* nextNewline_ = nullptr;  // in the current chunk: tqdm lines end in '\r', so remember where '\n' is
  std::string lastBarDescription_;     // a bar redraws its line thousands of times: classify it once
  BarKind lastBarKind_ = BarKind::Unnamed;
  long lastBarTotal_ = 0;
  std::optional<Phase> markerPhase_;  // from AI Toolkit's (and other tools') progress markers
  bool trainingStarted_ = false;
  bool trainingDone_ = false;         // the training bar reached its total
  Traceback traceback_;
  int tableLinesLeft_ = 0;       // lines of ComfyUI's allocation table still to read
  OomEvent event_;               // the last OOM message (or the first mark of a suspected one)
  WrappedMessage wrapped_;       // that message, when it goes on over the next lines
  OomKind wrappedKind_ = OomKind::None;
  std::optional<long> lastStep_;
  std::optional<long> announcedStep_;   // "Saving at step N", kohya's "sample images at step N"
  std::optional<Phase> announcedPhase_;  // the phase whose marker announced that step
  struct Seen {
    std::optional<Phase> phase;
    std::uint64_t line = 0;
  };
  Seen failedStage_;                    // a tool's last words for what failed
  std::optional<LogEvidence> suspicionStage_;  // where the run was at a suspected OOM's first mark
  FailureMarkSeen failureMark_;          // an OOM's mark that counts only if the run died of an error
  SilentExitSeen silentExit_;           // a wrapper's report that the process ended without a message
  bool mallocAsync_ = false;            // ComfyUI runs on the cudaMallocAsync allocator
  std::optional<long> skipStep_;        // the step of the last skipped batch
  std::size_t trainerRank_;             // of the trainer named so far among the markers' trainer signs (their count: none)
  bool aiToolkit() const { return trainerRank_ == markers_.trainerRank(kAiToolkitTrainer); }
  bool readingReportArgs_ = false;      // inside A1111's system report's list of its flags
  std::size_t toolRank_;                // of result_.tool among the markers' tool signs (their count: none)
  std::uint64_t toolLinesLeft_ = 200000;  // the UI shows in its banner and tracebacks: stop looking after this
};

// Whole-text convenience; without markers, the embedded rules' (knowledge().logs).
LogAnalysis analyzeLog(std::string_view text, const LogMarkers& markers);
LogAnalysis analyzeLog(std::string_view text);

// Whether text reads as a console log rather than a config.
bool looksLikeLog(std::string_view text, const LogMarkers& markers);
bool looksLikeLog(std::string_view text);

}  // namespace oomlint
