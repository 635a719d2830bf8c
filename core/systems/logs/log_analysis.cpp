#include "systems/logs/log_analysis.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "base/knowledge/knowledge.h"
#include "base/text/ascii.h"
#include "base/text/release_version.h"
#include "systems/logs/gpu_state.h"
#include "systems/logs/line_text.h"
#include "systems/logs/oom_numbers.h"
#include "systems/logs/progress_bar.h"
#include "systems/logs/suspicion.h"

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
    // A redraw of the remembered bar ends where that bar ended: a line equal to it but for digits holds
    // no break, so the byte at its length is the break, and no search is needed to find it.
    if (const std::size_t n = redrawn_.line.size(); n != 0 && n < chunk.size() - pos && begin[n] == '\r' &&
                                                   pending_.empty() && onRedraw(std::string_view(begin, n))) {
      lastWasCr_ = true;
      pos += n + 1;
      continue;
    }
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
  if (trainerRank_ < markers_.trainerSigns.size()) r.trainer = markers_.trainerSigns[trainerRank_].tool;
  if (r.oom) {
    r.suspected = false;  // a printed OOM wins over the marks of one
    r.evidence.clear();
  }
  if (!r.oom && !r.suspected) {
    r.phase = Phase::None;
    suspectMarkedFailure(failureMark_, r);
    suspectSilentExit(silentExit_, r);
    return r;
  }
  if (r.suspected && suspicionStage_) r.evidence.push_back(*suspicionStage_);
  // A generation UI that trained nothing was generating when it printed an OOM; where a kill struck it,
  // nothing says.
  const auto resolved = event_.resolve(aiToolkit(), r.oom && !r.tool.empty() && !trainingStarted_);
  r.phase = resolved.phase;
  r.step = resolved.step;
  if (r.oom) judgeGpuState(r, markers_.cappedBy);
  return r;
}

// One line, in the order that matters: a bar ends the line's reading (it carries nothing else but what
// was printed where its cursor stood), the traceback is read before an OOM message asks it where it
// failed, markers before the OOM message that records the phase they set.
void LogScanner::onLine(std::string_view raw) {
  if (onRedraw(raw)) return;
  redrawn_.line.clear();
  ++result_.lines;
  std::string cleaned;
  const std::string_view line = cleanLine(raw, cleaned);
  if (line.empty()) return;
  if (readContinuation(line)) return;
  readLine(raw, line, cleaned.empty());
}

void LogScanner::readLine(std::string_view raw, std::string_view line, bool asRead) {
  // Bars glued on one line (a '\r'-less terminal pasted flat) are read in turn, then what follows them.
  for (;;) {
    readAllocationTableRow(line);
    const std::optional<std::string_view> rest = readBar(raw, line, asRead);
    if (!rest) break;
    if (rest->empty()) return;
    raw = line = *rest;
    asRead = false;
  }
  readTraceback(raw, line);
  markers_.lineWords.find(line, words_);  // every per-line table's words, in one pass
  detectTool(line);
  readComfyStart(line);
  readOffload(line);
  readMarker(line);
  readFailedStage(line);
  if (readOomMessage(line)) return;
  readSilentExit(line);
  readFailure(line);
}

// The next line of a hard-wrapped OOM message: its figures are read again from the whole.
bool LogScanner::readContinuation(std::string_view line) {
  if (!wrapped_.take(line)) return false;
  const std::string& whole = wrapped_.joined();
  result_.numbers = {};
  readOomNumbers(whole, wrappedKind_, result_.numbers);
  result_.oomText = whole.substr(0, 400);
  event_.extendTo(result_.lines);
  return true;
}

bool LogScanner::onRedraw(std::string_view raw) {
  // Nothing is remembered line by line (readBar): every line is parsed.
  if (redrawn_.line.empty() || !isRedraw(redrawn_.line, raw, redrawn_.descriptionEnd)) return false;
  // A redraw counting to another total is another bar: parsed.
  for (std::size_t i = redrawn_.totalAt, end = i + redrawn_.totalDigits; i < end; ++i) {
    if (raw[i] != redrawn_.line[i]) return false;  // a few digits: no call to memcmp
  }
  ++result_.lines;
  // Only a training bar's redraws move anything but its step: the stage and what followed an OOM message
  // were taken from the bar's line just before (any other line ends a run of redraws).
  if (lastBarKind_ == BarKind::Training) onTrainingStep(digitsAt(raw, redrawn_.stepAt));
  return true;
}

void LogScanner::onTrainingStep(long step) {
  lastStep_ = step + 1;
  trainingDone_ = lastBarTotal_ > 0 && step >= lastBarTotal_;
  if (skipStep_ && *lastStep_ > *skipStep_ + 1) result_.continuedAfterOom = true;
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
// error message, traceback frame or marker — but what was printed after it on the same line, which it
// returns (empty when nothing was; none when the line is no bar).
std::optional<std::string_view> LogScanner::readBar(std::string_view raw, std::string_view t, bool asRead) {
  const auto bar = tqdmBar(t);
  if (!bar || std::any_of(markers_.barNotWhenEndsWith.begin(), markers_.barNotWhenEndsWith.end(),
                          [&](std::string_view end) { return t.ends_with(end); })) {
    return std::nullopt;
  }
  lastBarTotal_ = bar->total;
  onBar(t, bar->description, bar->step);
  // What was printed where the bar's cursor stood ("…]Traceback (most recent call last):", "…]OOM
  // Detected…", the next bar) is read as a line of its own.
  if (const std::string_view rest = trimmed(t.substr(bar->end)); !rest.empty()) return rest;
  // A redraw of this line that differs only in digits past the description is this bar at another
  // step: remember the line (as read) to take such redraws without parsing them. Not for a line that
  // was cleaned (offsets would move), an unnamed or generation bar (its phase reads the percentage) or while
  // ComfyUI's table is being read (its lines are counted).
  if (redraws_ == Redraws::Shortcut && asRead && lastBarKind_ != BarKind::Unnamed && lastBarKind_ != BarKind::Generation &&
      tableLinesLeft_ == 0 && raw.size() <= kMaxRedrawnLine) {
    const auto offset = [&](const char* at) { return static_cast<std::size_t>(at - raw.data()); };
    redrawn_.line.assign(raw);
    redrawn_.descriptionEnd = offset(bar->description.data() + bar->description.size());
    redrawn_.stepAt = offset(t.data() + bar->stepAt);
    redrawn_.totalAt = offset(t.data() + bar->totalAt);
    redrawn_.totalDigits = 0;
    while (redrawn_.totalAt + redrawn_.totalDigits < raw.size() && isAsciiDigit(raw[redrawn_.totalAt + redrawn_.totalDigits])) ++redrawn_.totalDigits;
  }
  return std::string_view();
}

// What a bar's description says it is: the first entry of bars.kinds whose words it has; none for an unnamed bar,
// or a named one with none of them (the training bar).
const BarWords* LogScanner::matchBar(std::string_view description) const {
  const std::string desc = lowercase(description);
  for (const auto& bar : markers_.bars) {
    if (bar.test.matches(desc)) return &bar;
  }
  return nullptr;
}

void LogScanner::onBar(std::string_view t, std::string_view description, long step) {
  if (description != lastBarDescription_) {
    lastBarDescription_ = std::string(description.substr(0, 256));
    const BarWords* bar = matchBar(description);
    lastBarKind_ = bar != nullptr ? bar->kind : description.empty() ? BarKind::Unnamed : BarKind::Training;
    if (bar != nullptr && !bar->tool.empty()) nameTool(bar->tool);
  }
  onBarStep(t, step);
}

void LogScanner::onBarStep(std::string_view t, long step) {
  event_.onBar(lastBarKind_, step);
  switch (lastBarKind_) {
    case BarKind::LatentCache: setStage(Phase::LatentCache, t); break;
    case BarKind::TextCache: setStage(Phase::TeCache, t); break;
    case BarKind::Quantize: setStage(Phase::Quantize, t); break;
    case BarKind::Validation:
    case BarKind::DatasetMap: break;
    case BarKind::Sampling: setStage(trainingStarted_ ? Phase::Sample : Phase::BaselineSample, t); break;
    case BarKind::Loading: setStage(Phase::Load, t); break;
    case BarKind::Training:
      trainingStarted_ = true;
      setStage(Phase::TrainStep, t);
      onTrainingStep(step);
      break;
    case BarKind::Generation:
    case BarKind::Unnamed:
      // An unnamed bar is a generation tool's sampler (a trainer's caching and quantizing bars are unnamed
      // too, and a UI's trainer's once it announced its training (A1111's textual inversion): those keep their
      // phase); once it completes, the VAE decodes.
      if (markerPhase_ != Phase::LatentCache && markerPhase_ != Phase::TeCache && markerPhase_ != Phase::Quantize &&
          markerPhase_ != Phase::TrainStep) {
        setStage(step > 0 && contains(t, "100%") ? Phase::VaeDecode : Phase::Inference, t);
      }
      break;
  }
}

// The stage the run is in, and the line that last announced it, for the evidence of a suspicion and what
// a log without an OOM showed: a marker restates it, a bar's redraws of the same stage do not.
void LogScanner::setStage(Phase phase, std::string_view line, bool restated) {
  if (markerPhase_ == phase && !restated) return;
  markerPhase_ = phase;
  result_.reached = phase;
  result_.reachedLine = static_cast<int>(result_.lines);
  result_.reachedText = std::string(line.substr(0, 400));
}

// The traceback; one that begins right after an OOM message is the except block printing it.
void LogScanner::readTraceback(std::string_view raw, std::string_view t) {
  if (traceback_.read(raw, t)) event_.onTracebackHeader(result_.lines);
  if (event_.wantsTraceback()) event_.onTracebackFrames(traceback_.phase());
}

// The generation UI that wrote the log, from its banner and paths, in its first lines only: a sign
// names its UI when it ranks above the one named so far (once the strongest is named, nothing can). Its flags
// are read whichever UI is named (Forge's banner comes before them).
void LogScanner::detectTool(std::string_view t) {
  if (toolLinesLeft_ == 0) return;
  --toolLinesLeft_;
  readLaunchArgs(t);
  for (std::size_t rank = 0; rank < toolRank_; ++rank) {
    if (!markers_.toolSigns[rank].test.matches(t, words_)) continue;
    result_.tool = markers_.toolSigns[rank].tool;
    toolRank_ = rank;
    return;
  }
}

// A UI named by something other than a line's sign (its own bar), under the same ranking.
void LogScanner::nameTool(std::string_view tool) {
  if (const std::size_t rank = markers_.toolRank(tool); rank < toolRank_) {
    result_.tool = std::string(tool);
    toolRank_ = rank;
  }
}

// The flags a WebUI was launched with: its launch line, or its system report's list.
void LogScanner::readLaunchArgs(std::string_view t) {
  if (words_.has(markers_.launchArgsId)) {
    const std::size_t at = t.find(markers_.launchArgs);
    result_.launchArgs = std::string(trimmed(t.substr(at + markers_.launchArgs.size())).substr(0, 400));
  }
  // A1111's system report: one JSON string a line, the script first, then the flags and their values.
  if (readingReportArgs_) {
    const std::size_t close = t.size() > 1 && t.front() == '"' ? t.find('"', 1) : std::string_view::npos;
    if (close == std::string_view::npos) {
      readingReportArgs_ = false;
    } else if (const std::string_view item = t.substr(1, close - 1); !item.ends_with(".py") && result_.launchArgs.size() < 400) {
      result_.launchArgs += (result_.launchArgs.empty() ? "" : " ") + std::string(item);
    }
  } else if (words_.has(markers_.systemReportArgsId)) {
    readingReportArgs_ = true;
  }
}

// ComfyUI's start-up lines: the card's memory ("Total VRAM 16311 MB, total RAM …"), its release ("ComfyUI version:
// 0.16.4") and the memory mode its flags chose ("Set vram state to: NO_VRAM"), with the flag that sets that mode as
// the launch's. The first of each counts: a log holds one start.
void LogScanner::readComfyStart(std::string_view t) {
  if (!result_.cardBytes && words_.has(markers_.cardMemoryId)) {
    std::string_view rest = t.substr(t.find(markers_.cardMemory) + markers_.cardMemory.size());
    std::int64_t mb = 0;
    std::size_t digits = 0;
    for (; digits < rest.size() && digits < 9 && rest[digits] >= '0' && rest[digits] <= '9'; ++digits) mb = mb * 10 + (rest[digits] - '0');
    if (digits > 0 && rest.substr(digits).starts_with(" MB") && mb > 0) result_.cardBytes = mb << 20;
  }
  if (result_.toolVersion.empty() && words_.has(markers_.versionLineId)) {
    std::string_view rest = t.substr(t.find(markers_.versionLine) + markers_.versionLine.size());
    if (const auto release = ReleaseVersion::parse(trimmed(rest.substr(0, 40)))) result_.toolVersion = release->text();
  }
  if (result_.vramState.empty() && words_.has(markers_.vramStateId)) {
    std::string_view rest = t.substr(t.find(markers_.vramState) + markers_.vramState.size());
    rest = rest.substr(0, std::min<std::size_t>(rest.find_first_of(" \t\r"), 40));
    result_.vramState = std::string(rest);
    for (const auto& [state, flag] : markers_.vramStateFlags) {
      if (state == rest && result_.launchArgs.empty()) result_.launchArgs = flag;
    }
  }
  // Dynamic VRAM on: the run is estimated as under the flag that forces it on.
  if (words_.has(markers_.dynamicVramId) && result_.launchArgs.find(markers_.dynamicVramFlag) == std::string::npos) {
    result_.launchArgs += (result_.launchArgs.empty() ? "" : " ") + markers_.dynamicVramFlag;
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
  for (std::size_t i = 0; i < trainerRank_; ++i) {
    if (markers_.trainerSigns[i].test.matches(t, words_)) trainerRank_ = i;
  }
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
  const bool kept = marker.keeps && marker.keeps == markerPhase_;
  if (marker.phase && !(marker.onlyBeforeTraining && trainingStarted_) && !kept) setStage(*marker.phase, t, true);
  if (marker.announcesStep) {
    if (auto step = announcedStep(*marker.announcesStep, t, markerEnd(marker.test, t))) announcedStep_ = step;
    announcedPhase_ = marker.phase;
  }
  if (!marker.effect) return;
  switch (*marker.effect) {
    case MarkerEffect::FirstStepNext: lastStep_ = 1; break;
    case MarkerEffect::AiToolkit: trainerRank_ = std::min(trainerRank_, markers_.trainerRank(kAiToolkitTrainer)); break;
    case MarkerEffect::MallocAsync: mallocAsync_ = true; break;
    case MarkerEffect::SkippedBatch:
      ++result_.skippedBatches;
      skipStep_ = lastStep_.value_or(1);
      trainingStarted_ = true;
      break;
  }
}

// A tool's own words for what failed: the phase of the error beside them.
void LogScanner::readFailedStage(std::string_view t) {
  const auto& stages = markers_.failedStages;
  const auto stage = std::find_if(stages.begin(), stages.end(), [&](const FailedStage& s) { return s.test.matches(t, words_); });
  if (stage == stages.end()) return;
  failedStage_ = {stage->phase, result_.lines};
  event_.onFailedStage(stage->phase, result_.lines);
}

// Out-of-memory messages, the first that matches: true when the line is one (it is then nothing else).
bool LogScanner::readOomMessage(std::string_view t) {
  const auto& messages = markers_.oomMessages;
  const auto message = std::find_if(messages.begin(), messages.end(), [&](const OomMessage& m) { return m.test.matches(t, words_); });
  if (message == messages.end()) return false;
  // ComfyUI recovers from a VAE OOM by decoding tiled: an OOM all the same, of the allocator in use.
  const OomKind kind = mallocAsync_ && message->kindUnderMallocAsync ? *message->kindUnderMallocAsync : message->kind;
  if (message->certainty == OomCertainty::Suspected) {
    onSuspectedText(t, *message, kind);
    return true;
  }
  if (message->certainty == OomCertainty::SuspectedIfFailed) {
    if (failureMark_.line == 0) {
      failureMark_ = {result_.lines, std::string(t.substr(0, 400)), message->evidence, kind, {}, markerPhase_, stageEvidence(result_)};
      readOomNumbers(t, kind, failureMark_.numbers);
    }
    return true;
  }
  const std::optional<Phase> previousTraceback = event_.tracebackPhase();
  startEvent(t, *message);
  // A bare repeat ("Error running job: CUDA out of memory…") keeps the traceback of the message it repeats.
  if (kind == OomKind::CudaAlloc && t.starts_with("Error running job")) event_.keepTraceback(previousTraceback);
  if (message->effect == OomEffect::AbortedAfterRetries) result_.abortedAfterRetries = true;
  if (message->effect == OomEffect::AllocationTable) tableLinesLeft_ = markers_.allocationTableLines;
  onOomText(t, kind);
  wrapped_.start(t);
  wrappedKind_ = kind;
  return true;
}

// The message, or the first mark of a suspected OOM: where the run was (OomEvent).
void LogScanner::startEvent(std::string_view t, const OomMessage& message) {
  if (message.phase) setStage(*message.phase, t, true);
  OomEvent::Before before{traceback_.phaseBeside(markerPhase_), markerPhase_, lastStep_, announcedStep_, announcedPhase_};
  const bool near = failedStage_.phase && failedStage_.line + OomEvent::kNear >= result_.lines;
  event_.start(result_.lines, before, near ? failedStage_.phase : std::nullopt);
  wrapped_.stop();
}

void LogScanner::onOomText(std::string_view line, OomKind kind) {
  LogAnalysis& r = result_;
  if (!r.oom) {  // the first printed OOM: a suspicion's kind and evidence give way
    r.kind = OomKind::None;
    r.numbers = {};
  }
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

// The mark of an OOM that printed no message. The first mark places the failure; the launcher's later
// reports of the same death add to its evidence. Not after a printed OOM: that one is the failure.
void LogScanner::onSuspectedText(std::string_view t, const OomMessage& message, OomKind kind) {
  LogAnalysis& r = result_;
  if (r.oom) return;
  if (!r.suspected) {
    startEvent(t, message);
    r.suspected = true;
    r.kind = kind;
    r.oomLine = static_cast<int>(r.lines);
    r.oomText = std::string(t.substr(0, 400));
    r.evidence = {evidenceAt(r.lines, t, message.evidence)};
    suspicionStage_ = stageEvidence(r);
    return;
  }
  constexpr std::size_t kMaxMarks = 3;
  if (r.evidence.size() < kMaxMarks) r.evidence.push_back(evidenceAt(r.lines, t, message.evidence));
}

// A wrapper's report that the process ended without a message (judged at the end: suspectSilentExit).
void LogScanner::readSilentExit(std::string_view t) {
  if (result_.oom || result_.suspected) return;
  const auto& exits = markers_.silentExits;
  const auto exit = std::find_if(exits.begin(), exits.end(), [&](const SilentExit& e) {
    return e.shellPrompt ? isShellPrompt(t) : e.test.matches(t, words_);
  });
  if (exit == exits.end()) return;
  silentExit_ = {result_.lines, std::string(t.substr(0, 400)), exit->evidence, markerPhase_, lastStep_, trainingDone_, stageEvidence(result_)};
}

// Other fatal errors, for a run that died of something else.
void LogScanner::readFailure(std::string_view t) {
  if (result_.oom || result_.suspected) return;
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

LogAnalysis analyzeLog(std::string_view text) { return analyzeLog(text, *knowledge().logs); }

bool looksLikeLog(std::string_view text, const LogMarkers& markers) {
  constexpr std::size_t kWindow = 1 << 16;
  const auto hasAny = [](std::string_view part, const std::vector<KnowledgeText>& words) {
    return std::any_of(words.begin(), words.end(), [&](std::string_view w) { return contains(part, w); });
  };
  const std::string_view head = text.substr(0, kWindow);
  // A text with an OOM message (or the marks of one) in it is a log however little else it shows.
  const bool oomText = std::any_of(markers.oomMessages.begin(), markers.oomMessages.end(),
                                   [&](const OomMessage& m) { return hasAny(head, m.test.contains); });
  return oomText || hasAny(head, markers.logSignsHead) ||
         hasAny(text.substr(text.size() > kWindow ? text.size() - kWindow : 0), markers.logSignsTail);
}

bool looksLikeLog(std::string_view text) { return looksLikeLog(text, *knowledge().logs); }

}  // namespace oomlint
