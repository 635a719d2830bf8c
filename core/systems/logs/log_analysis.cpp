#include "systems/logs/log_analysis.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

#include "base/text/ascii.h"
#include "systems/logs/gpu_state.h"
#include "systems/logs/line_text.h"
#include "systems/logs/oom_numbers.h"
#include "systems/logs/progress_bar.h"

namespace oomlint {

namespace {

constexpr std::size_t kMaxLine = 64 * 1024;  // longer lines are cut: every message we read is far shorter

bool containsAny(std::string_view s, std::initializer_list<std::string_view> words) {
  return std::any_of(words.begin(), words.end(), [&](std::string_view w) { return contains(s, w); });
}

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
  judgeGpuState(r);
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
  readComfyTableRow(line);
  if (readBar(raw, line, cleaned.empty())) return;
  traceback_.read(raw, line);
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
void LogScanner::readComfyTableRow(std::string_view t) {
  if (comfyLinesLeft_ == 0) return;
  --comfyLinesLeft_;
  OomNumbers& n = result_.numbers;
  if (t.starts_with("Currently allocated")) n.allocatedByPytorch = sizeAfter(t, ":");
  else if (t.starts_with("Requested")) n.triedToAllocate = sizeAfter(t, ":");
  else if (t.starts_with("Device limit")) n.totalCapacity = sizeAfter(t, ":");
  else if (t.starts_with("Free (according to CUDA)")) n.free = sizeAfter(t, ":");
}

// Progress bars are nearly every line of a training log (tqdm redraws its line), and a bar carries no
// error message, traceback frame or marker — except the kernel's "Killed" glued to its end.
bool LogScanner::readBar(std::string_view raw, std::string_view t, bool asRead) {
  const auto bar = tqdmBar(t);
  if (!bar || t.ends_with("Killed")) return false;
  onBar(t, bar->description, bar->step);
  // A redraw of this line that differs only in digits past the description is this bar at another
  // step: remember the line (as read) to take such redraws without parsing them. Not for a line that
  // was cleaned (offsets would move), an unnamed bar (its phase reads the percentage) or while
  // ComfyUI's table is being read (its lines are counted).
  if (redraws_ == Redraws::Shortcut && asRead && lastBarKind_ != BarKind::Unnamed && comfyLinesLeft_ == 0 &&
      raw.size() <= kMaxRedrawnLine) {
    const auto offset = [&](const char* at) { return static_cast<std::size_t>(at - raw.data()); };
    redrawn_.line.assign(raw);
    redrawn_.descriptionEnd = offset(bar->description.data() + bar->description.size());
    redrawn_.stepAt = offset(t.data() + bar->stepAt);
  }
  return true;
}

LogScanner::BarKind LogScanner::classifyBar(std::string_view description) {
  const std::string desc = lowercase(description);
  if (containsAny(desc, {"caching latents", "caching latent"})) return BarKind::LatentCache;
  if (containsAny(desc, {"caching text", "text embeddings"})) return BarKind::TextCache;
  if (containsAny(desc, {"quantiz", "attaching quantization"})) return BarKind::Quantize;
  // pytorch_lightning's sanity check and validation bars: not the training bar.
  if (containsAny(desc, {"sanity check", "validation"})) return BarKind::Validation;
  if (containsAny(desc, {"generating images", "generating samples", "sampling", "generating class images"})) return BarKind::Sampling;
  if (containsAny(desc, {"loading checkpoint", "fetching", "loading"})) return BarKind::Loading;
  // A named bar that is none of the above is the training bar (AI Toolkit names it after the job;
  // kohya calls it "steps").
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

// The generation UI that wrote the log, from its banner and paths, in its first lines only. Forge first:
// it keeps A1111's banner and paths; ComfyUI before A1111 (its loader lines are its own).
void LogScanner::detectTool(std::string_view t) {
  if (toolLinesLeft_ == 0 || result_.tool == "forge") return;
  --toolLinesLeft_;
  constexpr std::string_view launching = "Launching Web UI with arguments:";
  if (const std::size_t at = t.find(launching); at != std::string_view::npos) {
    result_.launchArgs = std::string(trimmed(t.substr(at + launching.size())).substr(0, 400));
  }
  if (containsAny(t, {"[Memory Management]", "webui-forge", "webui_forge", "[GPU Setting]", "[Unload] Trying to free",
                      "Moving model(s) has taken", "backend/memory_management", "backend\\memory_management"})) {
    result_.tool = "forge";
  } else if (result_.tool != "comfyui" &&
             containsAny(t, {"Requested to load", "loaded completely", "loaded partially", "!!! Exception during processing",
                             "got prompt", "comfy/", "comfy\\", "ComfyUI"})) {
    result_.tool = "comfyui";
  } else if (result_.tool.empty() &&
             containsAny(t, {"Launching Web UI with arguments", "stable-diffusion-webui", "modules/processing.py",
                             "modules\\processing.py", "Applying attention optimization", "Creating model from config"})) {
    result_.tool = "a1111";
  }
}

// ComfyUI's and Forge's memory managers keeping weights in system RAM: slow, not an OOM.
void LogScanner::readOffload(std::string_view t) {
  if ((result_.tool != "comfyui" && result_.tool != "forge") ||
      !containsAny(t, {"loaded partially", "Swap Loaded", "loading in lowvram mode"})) {
    return;
  }
  result_.offloaded = true;
  result_.offloadLine = static_cast<int>(result_.lines);
  result_.offloadText = std::string(t.substr(0, 400));
  // ComfyUI: "…, 4633.39 MB offloaded, …"; Forge: "… Swap Loaded (asynchronous method): 17496.00 MB, …".
  if (auto v = sizeBefore(t, " offloaded")) result_.offloadedBytes = std::max(result_.offloadedBytes, *v);
  if (const std::size_t swap = t.find("Swap Loaded"); swap != std::string_view::npos) {
    if (auto v = sizeAfter(t, "): ", swap)) result_.offloadedBytes = std::max(result_.offloadedBytes, *v);
  }
}

// Progress markers: the stage the run has reached (AI Toolkit first, common ones of other tools after).
void LogScanner::readMarker(std::string_view t) {
  if (containsAny(t, {"ai-toolkit", "toolkit/", "Saving at step", "Running  1 process"})) aiToolkit_ = true;
  if (t.starts_with("Loading") || containsAny(t, {"Loading checkpoint shards", "Making pipe", "Preparing Model"})) {
    if (!trainingStarted_) markerPhase_ = Phase::Load;
  } else if (containsAny(t, {"Quantizing", " - quantizing"})) {
    markerPhase_ = Phase::Quantize;
  } else if (t.starts_with("Caching latents")) {
    markerPhase_ = Phase::LatentCache;
  } else if (containsAny(t, {"Caching text_embeddings", "Caching text embeddings", "Caching embeddings and unloading"})) {
    markerPhase_ = Phase::TeCache;
  } else if (containsAny(t, {"Generating baseline samples", "Generating first sample"})) {
    markerPhase_ = Phase::BaselineSample;
  } else if (containsAny(t, {"caching latents", "Caching latents"})) {
    markerPhase_ = Phase::LatentCache;
  } else if (containsAny(t, {"prepare optimizer, data loader", "running training"})) {
    markerPhase_ = Phase::TrainStep;  // kohya: the next thing it does is the first step
    lastStep_ = 1;
  } else if (contains(t, "generating sample images at step")) {
    // kohya: "generating sample images at step / サンプル画像生成 ステップ: 250   flux_train_utils.py:46"
    markerPhase_ = Phase::Sample;
    const std::size_t colon = t.find(':', t.find("at step"));
    if (colon != std::string_view::npos) announcedStep_ = std::strtol(std::string(t.substr(colon + 1)).c_str(), nullptr, 10);
    announcedPhase_ = Phase::Sample;
  } else if (containsAny(t, {"Requested to load", "loaded partially", "Loading model", "Loading weights"})) {
    if (!trainingStarted_) markerPhase_ = Phase::Load;
  } else if (contains(t, "TrainLoop")) {
    markerPhase_ = Phase::TrainStep;  // ComfyUI trainer nodes (FluxTrainLoop)
  } else if (containsAny(t, {"Running 1 job", "# Running job:"})) {
    aiToolkit_ = true;
  } else if (contains(t, "cudaMallocAsync")) {
    mallocAsync_ = true;
  } else if (contains(t, "got prompt")) {
    markerPhase_ = Phase::Inference;
  } else if (containsAny(t, {"executing VAEDecode", "VAEDecode"})) {
    markerPhase_ = Phase::VaeDecode;
  } else if (t.starts_with("Saving at step")) {
    markerPhase_ = Phase::Save;
    // The number after "Saving at step "; the line may end at the marker (substr past its end throws).
    announcedStep_ = std::strtol(std::string(t.substr(std::min<std::size_t>(15, t.size()))).c_str(), nullptr, 10);
    announcedPhase_ = Phase::Save;
  } else if (contains(t, "OOM during training step, skipping batch")) {
    ++result_.skippedBatches;
    skipStep_ = lastStep_.value_or(1);
    markerPhase_ = Phase::TrainStep;
    trainingStarted_ = true;
  }
}

// Out-of-memory messages: true when the line is one (it is then nothing else).
bool LogScanner::readOomMessage(std::string_view t) {
  const OomKind kind = oomKindOf(t);
  if (kind == OomKind::None) return false;
  onOomText(t, kind);
  oomPhaseMarker_ = markerPhase_;
  if (auto fromTraceback = traceback_.phase()) oomTracebackPhase_ = fromTraceback;
  else if (kind != OomKind::CudaAlloc || !t.starts_with("Error running job")) oomTracebackPhase_.reset();
  stepAtOom_ = lastStep_;
  announcedAtOom_ = announcedStep_;
  announcedPhaseAtOom_ = announcedPhase_;
  return true;
}

OomKind LogScanner::oomKindOf(std::string_view t) {
  if (contains(t, "OOM during training step 3 times in a row")) {
    result_.abortedAfterRetries = true;
    return OomKind::CudaAlloc;
  }
  if (contains(t, "OOM during training step, skipping batch")) return OomKind::CudaAlloc;
  if (contains(t, "HIP out of memory")) return OomKind::HipAlloc;
  if (contains(t, "MPS backend out of memory")) return OomKind::MpsAlloc;
  if (contains(t, "Ran out of memory when regular VAE")) {
    // ComfyUI/Forge recover by decoding tiled: an OOM all the same, of the allocator in use.
    markerPhase_ = contains(t, "encoding") ? Phase::LatentCache : Phase::VaeDecode;
    return mallocAsync_ ? OomKind::ComfyAlloc : OomKind::CudaAlloc;
  }
  if (containsAny(t, {"would exceed allowed memory", "Allocation on device"})) {
    comfyLinesLeft_ = 8;
    return OomKind::ComfyAlloc;
  }
  if (contains(t, "CUDA out of memory")) return OomKind::CudaAlloc;
  if (contains(t, "CUDA error: out of memory")) return OomKind::CudaError;
  if (contains(t, "CUBLAS_STATUS_ALLOC_FAILED")) return OomKind::CublasAlloc;
  if (containsAny(t, {"DefaultCPUAllocator: not enough memory", "Out of memory: Killed process", "paging file is too small",
                      "os error 1455", "exited with code 137", "exit status -9", "exit code 137", "exit code -9",
                      "returned -9"}) ||
      t.starts_with("MemoryError") || t == "Killed" || t.ends_with(" Killed") || t.ends_with("]Killed")) {
    return OomKind::HostRam;
  }
  return OomKind::None;
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
  if (t.starts_with("Error running job:") || contains(t, "Error: ") || t.starts_with("ValueError") ||
      containsAny(t, {"exited unexpectedly", "what():", "Segmentation fault"}) || t.starts_with("FileNotFoundError") ||
      t.starts_with("RuntimeError") || t.starts_with("AssertionError")) {
    result_.failure = std::string(t.substr(0, 300));
    result_.failureLine = static_cast<int>(result_.lines);
  }
}

LogAnalysis analyzeLog(std::string_view text) {
  LogScanner scanner;
  scanner.feed(text);
  return scanner.finish();
}

bool looksLikeLog(std::string_view text) {
  const std::string_view head = text.substr(0, 1 << 16);
  return containsAny(head, {"Traceback (most recent call last)", "%|", "out of memory", "Error", "it/s]", "s/it]", "Killed",
                            "Running 1 job", "Loading ", "Starting ", "INFO", "WARNING"}) ||
         containsAny(text.substr(text.size() > (1 << 16) ? text.size() - (1 << 16) : 0), {"Traceback", "Error", "out of memory"});
}

}  // namespace oomlint
