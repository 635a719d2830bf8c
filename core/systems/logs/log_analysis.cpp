#include "systems/logs/log_analysis.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "base/knowledge/knowledge.h"
#include "base/text/ascii.h"
#include "systems/logs/gpu_state.h"
#include "systems/logs/line_text.h"
#include "systems/logs/oom_numbers.h"
#include "systems/logs/progress_bar.h"

namespace oomlint {

namespace {

constexpr std::size_t kMaxLine = 64 * 1024;  // longer lines are cut: every message we read is far shorter

}  // namespace

void LogScanner::feed(std::string_view chunk) {
  result_.bytes += chunk.size();
  const char* const end = chunk.data() + chunk.size();
  nextNewline_ = nullptr;
  std::size_t pos = 0;
  while (pos < chunk.size()) {
    // memchr-speed searches rather than byte by byte; the next '\n' is found once per chunk region,
    // not once per '\r'-ended progress line (a tqdm log has millions of those between newlines).
    const char* begin = chunk.data() + pos;
    if (nextNewline_ == nullptr || nextNewline_ < begin) {
      nextNewline_ = static_cast<const char*>(std::memchr(begin, '\n', static_cast<std::size_t>(end - begin)));
      if (nextNewline_ == nullptr) nextNewline_ = end;
    }
    const char* cr = static_cast<const char*>(std::memchr(begin, '\r', static_cast<std::size_t>(nextNewline_ - begin)));
    const char* brk = cr ? cr : (nextNewline_ < end ? nextNewline_ : nullptr);
    const std::size_t left = chunk.size() - pos;
    if (brk == nullptr) {
      pending_.append(begin, std::min(left, kMaxLine > pending_.size() ? kMaxLine - pending_.size() : 0));
      lastWasCr_ = false;
      return;
    }
    const std::size_t len = static_cast<std::size_t>(brk - begin);
    // "\r\n" is one break; a lone "\r" is tqdm rewriting its line: each rewrite is a line too.
    const bool crlfTail = *brk == '\n' && len == 0 && lastWasCr_ && pending_.empty();
    if (!crlfTail) {
      if (pending_.empty()) {
        onLine(std::string_view(begin, std::min(len, kMaxLine)));
      } else {
        pending_.append(begin, std::min(len, kMaxLine > pending_.size() ? kMaxLine - pending_.size() : 0));
        onLine(pending_);
        pending_.clear();
      }
    }
    lastWasCr_ = *brk == '\r';
    pos += len + 1;
  }
}

LogAnalysis LogScanner::finish() {
  if (!pending_.empty()) onLine(pending_);
  pending_.clear();
  LogAnalysis r = result_;
  if (!r.oom) {
    r.phase = Phase::None;
    return r;
  }
  // The traceback names the operation that failed; markers name the stage the run had reached.
  std::optional<Phase> phase = oomTracebackPhase_ ? oomTracebackPhase_ : oomPhaseMarker_;
  if (phase == Phase::Sample && oomPhaseMarker_ == Phase::BaselineSample) phase = Phase::BaselineSample;
  r.phase = phase.value_or(Phase::Unknown);
  // The step being trained; for a sample or save, the step it announces (AI Toolkit samples at the bar's step).
  if (r.phase == Phase::TrainStep) r.step = stepAtOom_;
  const bool announcedHere = announcedAtOom_ && announcedPhaseAtOom_ == r.phase;
  if (r.phase == Phase::Sample || r.phase == Phase::Save) {
    // AI Toolkit samples at the step its bar reached; kohya announces the step it samples at.
    r.step = announcedHere ? announcedAtOom_ : (aiToolkit_ ? stepAtOom_ : std::nullopt);
    if (aiToolkit_ && announcedAtOom_ && stepAtOom_ && r.phase == Phase::Sample) r.step = std::max(*announcedAtOom_, *stepAtOom_);
  }
  judgeGpuState(r, markers_.cappedBy);
  return r;
}

// One line, in the order that matters: a bar ends the line's reading (it carries nothing else), the
// traceback is read before an OOM message asks it where it failed, markers before the OOM message
// that records the phase they set.
void LogScanner::onLine(std::string_view raw) {
  if (redraws_ == Redraws::Shortcut && onRedraw(raw)) return;
  redrawn_.line.clear();
  ++result_.lines;
  std::string cleaned;
  const std::string_view line = cleanLine(raw, cleaned);
  if (line.empty()) return;
  readAllocationTableRow(line);
  if (readBar(raw, line, cleaned.empty())) return;
  traceback_.read(raw, line);
  markers_.lineWords.find(line, words_);  // every per-line table's words, in one pass
  detectTool(line);
  readOffload(line);
  readMarker(line);
  if (readOomMessage(line)) return;
  readFailure(line);
}

bool LogScanner::onRedraw(std::string_view raw) {
  if (redrawn_.line.empty() || !isRedraw(redrawn_.line, raw, redrawn_.descriptionEnd)) return false;
  ++result_.lines;
  onBarStep({}, digitsAt(raw, redrawn_.stepAt));  // the bar's kind is not Unnamed, the one kind that reads the line
  return true;
}

// ComfyUI's allocation table, in the lines after "Allocation on device … would exceed allowed memory".
void LogScanner::readAllocationTableRow(std::string_view t) {
  if (tableLinesLeft_ == 0) return;
  --tableLinesLeft_;
  for (const auto& row : markers_.allocationTable) {
    if (!t.starts_with(row.startsWith)) continue;
    figureOf(result_.numbers, row.figure) = sizeAfter(t, ":");
    return;
  }
}

// Progress bars are nearly every line of a training log (tqdm redraws its line), and a bar carries no
// error message, traceback frame or marker — except the kernel's "Killed" glued to its end.
bool LogScanner::readBar(std::string_view raw, std::string_view t, bool asRead) {
  const auto bar = tqdmBar(t);
  if (!bar || std::any_of(markers_.barNotWhenEndsWith.begin(), markers_.barNotWhenEndsWith.end(),
                          [&](const std::string& end) { return t.ends_with(end); })) {
    return false;
  }
  onBar(t, bar->description, bar->step);
  // A redraw of this line that differs only in digits past the description is this bar at another
  // step: remember the line (as read) to take such redraws without parsing them. Not for a line that
  // was cleaned (offsets would move), an unnamed bar (its phase reads the percentage) or while
  // ComfyUI's table is being read (its lines are counted).
  if (redraws_ == Redraws::Shortcut && asRead && lastBarKind_ != BarKind::Unnamed && tableLinesLeft_ == 0 &&
      raw.size() <= kMaxRedrawnLine) {
    const auto offset = [&](const char* at) { return static_cast<std::size_t>(at - raw.data()); };
    redrawn_.line.assign(raw);
    redrawn_.descriptionEnd = offset(bar->description.data() + bar->description.size());
    redrawn_.stepAt = offset(t.data() + bar->stepAt);
  }
  return true;
}

// What a bar's description says it is: the first kind whose words it has; a named bar with none of
// them is the training bar.
BarKind LogScanner::classifyBar(std::string_view description) const {
  const std::string desc = lowercase(description);
  for (const auto& bar : markers_.bars) {
    if (bar.test.matches(desc)) return bar.kind;
  }
  return desc.empty() ? BarKind::Unnamed : BarKind::Training;
}

void LogScanner::onBar(std::string_view t, std::string_view description, long step) {
  if (description != lastBarDescription_) {
    lastBarDescription_ = std::string(description.substr(0, 256));
    lastBarKind_ = classifyBar(description);
  }
  onBarStep(t, step);
}

void LogScanner::onBarStep(std::string_view t, long step) {
  switch (lastBarKind_) {
    case BarKind::LatentCache: markerPhase_ = Phase::LatentCache; break;
    case BarKind::TextCache: markerPhase_ = Phase::TeCache; break;
    case BarKind::Quantize: markerPhase_ = Phase::Quantize; break;
    case BarKind::Validation: break;
    case BarKind::Sampling: markerPhase_ = trainingStarted_ ? Phase::Sample : Phase::BaselineSample; break;
    case BarKind::Loading: markerPhase_ = Phase::Load; break;
    case BarKind::Training:
      trainingStarted_ = true;
      markerPhase_ = Phase::TrainStep;
      lastStep_ = step + 1;
      if (skipStep_ && *lastStep_ > *skipStep_ + 1) result_.continuedAfterOom = true;
      break;
    case BarKind::Unnamed:
      // An unnamed bar is a generation tool's sampler (a trainer's caching bars are unnamed too: those
      // keep their phase); once it completes, the VAE decodes.
      if (markerPhase_ != Phase::LatentCache && markerPhase_ != Phase::TeCache) {
        markerPhase_ = step > 0 && contains(t, "100%") ? Phase::VaeDecode : Phase::Inference;
      }
      break;
  }
}

// The generation UI that wrote the log, from its banner and paths, in its first lines only: a sign
// names its UI when it ranks above the one named so far (once the strongest is named, nothing can).
void LogScanner::detectTool(std::string_view t) {
  if (toolLinesLeft_ == 0 || toolRank_ == 0) return;
  --toolLinesLeft_;
  if (words_.has(markers_.launchArgsId)) {
    const std::size_t at = t.find(markers_.launchArgs);
    result_.launchArgs = std::string(trimmed(t.substr(at + markers_.launchArgs.size())).substr(0, 400));
  }
  for (std::size_t rank = 0; rank < toolRank_; ++rank) {
    if (!markers_.toolSigns[rank].test.matches(t, words_)) continue;
    result_.tool = markers_.toolSigns[rank].tool;
    toolRank_ = rank;
    return;
  }
}

// A memory manager keeping weights in system RAM: slow, not an OOM.
void LogScanner::readOffload(std::string_view t) {
  const auto& tools = markers_.offloadTools;
  if (std::find(tools.begin(), tools.end(), result_.tool) == tools.end() || !markers_.offload.matches(t, words_)) return;
  result_.offloaded = true;
  result_.offloadLine = static_cast<int>(result_.lines);
  result_.offloadText = std::string(t.substr(0, 400));
  // The bytes where the line says them. ComfyUI: "…, 4633.39 MB offloaded, …"; Forge: "… Swap Loaded
  // (asynchronous method): 17496.00 MB, …".
  if (auto v = sizeBefore(t, " offloaded")) result_.offloadedBytes = std::max(result_.offloadedBytes, *v);
  if (const std::size_t swap = t.find("Swap Loaded"); swap != std::string_view::npos) {
    if (auto v = sizeAfter(t, "): ", swap)) result_.offloadedBytes = std::max(result_.offloadedBytes, *v);
  }
}

// Progress markers: the stage the run has reached; the first marker that matches speaks.
void LogScanner::readMarker(std::string_view t) {
  if (markers_.aiToolkit.matches(t, words_)) aiToolkit_ = true;
  for (const auto& marker : markers_.markers) {
    if (!marker.test.matches(t, words_)) continue;
    applyMarker(marker, t);
    return;
  }
}

namespace {

// Where a marker's text ends in the line that matched it (the step it announces follows).
std::size_t markerEnd(const LineTest& test, std::string_view t) {
  for (const auto& word : test.startsWith) {
    if (t.starts_with(word)) return word.size();
  }
  for (const auto& word : test.contains) {
    if (const std::size_t at = t.find(word); at != std::string_view::npos) return at + word.size();
  }
  return t.size();
}

// The step a marker announces: the number after it ("Saving at step 250"), or after the first ':' that
// follows it (kohya's "generating sample images at step / サンプル画像生成 ステップ: 250").
std::optional<long> announcedStep(StepPosition position, std::string_view t, std::size_t end) {
  std::size_t from = end;
  if (position == StepPosition::AfterColon) {
    from = t.find(':', end);
    if (from == std::string_view::npos) return std::nullopt;
    ++from;
  }
  return std::strtol(std::string(t.substr(from)).c_str(), nullptr, 10);
}

}  // namespace

void LogScanner::applyMarker(const PhaseMarker& marker, std::string_view t) {
  if (marker.phase && !(marker.onlyBeforeTraining && trainingStarted_)) markerPhase_ = marker.phase;
  if (marker.announcesStep) {
    if (auto step = announcedStep(*marker.announcesStep, t, markerEnd(marker.test, t))) announcedStep_ = step;
    announcedPhase_ = marker.phase;
  }
  if (!marker.effect) return;
  switch (*marker.effect) {
    case MarkerEffect::FirstStepNext: lastStep_ = 1; break;
    case MarkerEffect::AiToolkit: aiToolkit_ = true; break;
    case MarkerEffect::MallocAsync: mallocAsync_ = true; break;
    case MarkerEffect::SkippedBatch:
      ++result_.skippedBatches;
      skipStep_ = lastStep_.value_or(1);
      trainingStarted_ = true;
      break;
  }
}

// Out-of-memory messages, the first that matches: true when the line is one (it is then nothing else).
bool LogScanner::readOomMessage(std::string_view t) {
  const auto& messages = markers_.oomMessages;
  const auto message = std::find_if(messages.begin(), messages.end(), [&](const OomMessage& m) { return m.test.matches(t, words_); });
  if (message == messages.end()) return false;
  // ComfyUI recovers from a VAE OOM by decoding tiled: an OOM all the same, of the allocator in use.
  const OomKind kind = mallocAsync_ && message->kindUnderMallocAsync ? *message->kindUnderMallocAsync : message->kind;
  if (message->phase) markerPhase_ = message->phase;
  if (message->effect == OomEffect::AbortedAfterRetries) result_.abortedAfterRetries = true;
  if (message->effect == OomEffect::AllocationTable) tableLinesLeft_ = markers_.allocationTableLines;
  onOomText(t, kind);
  oomPhaseMarker_ = markerPhase_;
  if (auto fromTraceback = traceback_.phase()) oomTracebackPhase_ = fromTraceback;
  else if (kind != OomKind::CudaAlloc || !t.starts_with("Error running job")) oomTracebackPhase_.reset();
  stepAtOom_ = lastStep_;
  announcedAtOom_ = announcedStep_;
  announcedPhaseAtOom_ = announcedPhase_;
  return true;
}

void LogScanner::onOomText(std::string_view line, OomKind kind) {
  LogAnalysis& r = result_;
  // A message with figures replaces an earlier one's; a bare repeat ("Error running job: CUDA out of
  // memory…" without them, a banner) keeps them.
  const bool newEvent = r.oom && kind != r.kind && kind != OomKind::CudaAlloc;
  if (contains(line, "Tried to allocate") || kind == OomKind::ComfyAlloc || kind == OomKind::MpsAlloc || newEvent) r.numbers = {};
  r.oom = true;
  // The generic allocator wording never overrides a more specific kind seen for the same failure.
  if (kind != OomKind::CudaAlloc || r.kind == OomKind::None) r.kind = kind;
  r.oomLine = static_cast<int>(r.lines);
  r.oomText = std::string(line.substr(0, 400));
  readOomNumbers(line, kind, r.numbers);
}

// Other fatal errors, for a run that died of something else.
void LogScanner::readFailure(std::string_view t) {
  if (result_.oom) return;
  const auto& failures = markers_.failures;
  if (std::none_of(failures.begin(), failures.end(), [&](const LineTest& f) { return f.matches(t, words_); })) return;
  result_.failure = std::string(t.substr(0, 300));
  result_.failureLine = static_cast<int>(result_.lines);
}

LogAnalysis analyzeLog(std::string_view text, const LogMarkers& markers) {
  LogScanner scanner(markers);
  scanner.feed(text);
  return scanner.finish();
}

LogAnalysis analyzeLog(std::string_view text) { return analyzeLog(text, knowledge().logs); }

bool looksLikeLog(std::string_view text, const LogMarkers& markers) {
  constexpr std::size_t kWindow = 1 << 16;
  const auto hasAny = [](std::string_view part, const std::vector<std::string>& words) {
    return std::any_of(words.begin(), words.end(), [&](const std::string& w) { return contains(part, w); });
  };
  return hasAny(text.substr(0, kWindow), markers.logSignsHead) ||
         hasAny(text.substr(text.size() > kWindow ? text.size() - kWindow : 0), markers.logSignsTail);
}

bool looksLikeLog(std::string_view text) { return looksLikeLog(text, knowledge().logs); }

}  // namespace oomlint
