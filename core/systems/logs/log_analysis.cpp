#include "systems/logs/log_analysis.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "base/text/ascii.h"
#include "systems/logs/traceback.h"

namespace oomlint {

namespace {

constexpr std::size_t kMaxLine = 64 * 1024;  // longer lines are cut: every message we read is far shorter

bool contains(std::string_view s, std::string_view what) { return s.find(what) != std::string_view::npos; }

bool containsAny(std::string_view s, std::initializer_list<std::string_view> words) {
  return std::any_of(words.begin(), words.end(), [&](std::string_view w) { return contains(s, w); });
}

// "23.55 GiB" at `pos` → bytes (binary units; MPS's "GB"/"MB" are 1024-based too).
std::optional<std::int64_t> sizeAt(std::string_view s, std::size_t pos) {
  while (pos < s.size() && s[pos] == ' ') ++pos;
  std::size_t end = pos;
  while (end < s.size() && (std::isdigit(static_cast<unsigned char>(s[end])) || s[end] == '.')) ++end;
  if (end == pos) return std::nullopt;
  const double value = std::strtod(std::string(s.substr(pos, end - pos)).c_str(), nullptr);
  std::size_t unit = end;
  while (unit < s.size() && s[unit] == ' ') ++unit;
  static const std::array<std::pair<std::string_view, double>, 8> units = {{{"bytes", 1},
                                                                            {"KiB", 1024.0},
                                                                            {"MiB", 1048576.0},
                                                                            {"GiB", 1073741824.0},
                                                                            {"KB", 1024.0},
                                                                            {"MB", 1048576.0},
                                                                            {"GB", 1073741824.0},
                                                                            {"B", 1}}};
  for (const auto& [name, factor] : units) {
    if (s.substr(unit, name.size()) != name) continue;
    // No GPU has an exabyte: an absurd figure is garbage, not a size (and must not overflow).
    const double bytes = value * factor;
    if (!(bytes >= 0 && bytes < 1e18)) return std::nullopt;
    return static_cast<std::int64_t>(std::llround(bytes));
  }
  return std::nullopt;
}

// The size right after `label` ("Tried to allocate 72.00 MiB" → 72 MiB).
std::optional<std::int64_t> sizeAfter(std::string_view s, std::string_view label, std::size_t from = 0) {
  const std::size_t at = s.find(label, from);
  return at == std::string_view::npos ? std::nullopt : sizeAt(s, at + label.size());
}

// The size right before `label` ("23.55 GiB total capacity" → 23.55 GiB).
std::optional<std::int64_t> sizeBefore(std::string_view s, std::string_view label) {
  const std::size_t at = s.find(label);
  if (at == std::string_view::npos) return std::nullopt;
  std::size_t start = at;
  int spaces = 0;
  while (start > 0 && spaces < 2) {
    --start;
    if (s[start] == ' ' && start + 1 < at) ++spaces;
    if (s[start] == ';' || s[start] == '(' || s[start] == ',') {
      ++start;
      break;
    }
  }
  return sizeAt(s, start);
}

// ASCII whitespace, inline: the scanner calls this on every byte it trims, millions of times a log.
constexpr bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && isSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && isSpace(s.back())) s.remove_suffix(1);
  return s;
}

constexpr bool isDigit(char c) { return c >= '0' && c <= '9'; }

// The number whose digits start at `digits` (0 when it overflows): a bar's step, whether the line is
// parsed or taken as a redraw.
long digitsAt(std::string_view s, std::size_t digits) {
  long value = 0;
  for (std::size_t i = digits; i < s.size() && isDigit(s[i]); ++i) {
    if (__builtin_mul_overflow(value, 10, &value) || __builtin_add_overflow(value, s[i] - '0', &value)) return 0;
  }
  return value;
}

struct TqdmBar {
  std::string_view description;
  long step = 0;
  std::size_t stepAt = 0;  // the offset of the step's digits in the line
};

// A tqdm bar "desc:  12%|███  | 250/2000 [..." → (desc, 250); nullopt when the line is not a bar.
// Colab strips the bar glyphs: "desc:   0% 0/9 [00:05<?, ?it/s]".
std::optional<TqdmBar> tqdmBar(std::string_view line) {
  std::size_t pct = line.find("%|");
  std::size_t i = 0;
  if (pct != std::string_view::npos) {
    const std::size_t bar = line.find('|', pct + 2);
    if (bar == std::string_view::npos) return std::nullopt;
    i = bar + 1;
  } else {
    pct = line.find("% ");
    if (pct == std::string_view::npos || pct == 0 || !isDigit(line[pct - 1]) ||
        line.find(" [", pct) == std::string_view::npos) {
      return std::nullopt;
    }
    i = pct + 1;
  }
  while (i < line.size() && line[i] == ' ') ++i;
  const std::size_t start = i;
  while (i < line.size() && isDigit(line[i])) ++i;
  if (i == start || i >= line.size() || line[i] != '/') return std::nullopt;
  std::size_t descEnd = pct;
  while (descEnd > 0 && line[descEnd - 1] != ':' && !isSpace(line[descEnd - 1])) --descEnd;
  std::string_view desc = trimmed(line.substr(0, descEnd));
  if (!desc.empty() && desc.back() == ':') desc.remove_suffix(1);
  return TqdmBar{desc, digitsAt(line, start), start};
}

// Byte masks over eight bytes at once: the high bit of each byte of the result is set where the
// byte is not an ASCII digit (notDigits) or is not zero (nonZero). The low seven bits are summed
// apart so that no carry crosses into the next byte.
constexpr std::uint64_t kLow7 = 0x7F7F7F7F7F7F7F7Full;
constexpr std::uint64_t kHigh = 0x8080808080808080ull;
constexpr std::uint64_t nonZero(std::uint64_t w) { return (((w & kLow7) + kLow7) | w) & kHigh; }
constexpr std::uint64_t notDigits(std::uint64_t w) {
  const std::uint64_t t = w ^ 0x3030303030303030ull;  // '0'..'9' become 0..9
  return (((t & kLow7) + 0x7676767676767676ull) | t) & kHigh;
}

std::uint64_t wordAt(std::string_view s, std::size_t i) {
  std::uint64_t w = 0;
  std::memcpy(&w, s.data() + i, 8);
  return w;
}

// Whether `line` redraws `drawn`: the same length, the same first `fixed` bytes, and otherwise the
// same bytes except where both have a digit. Eight bytes at a time: a redraw is ~100 bytes, most of
// them unchanged.
bool isRedraw(std::string_view drawn, std::string_view line, std::size_t fixed) {
  if (drawn.size() != line.size() || std::memcmp(drawn.data(), line.data(), fixed) != 0) return false;
  const auto differsInNonDigits = [&](std::size_t i) {
    const std::uint64_t a = wordAt(drawn, i), b = wordAt(line, i);
    return (nonZero(a ^ b) & (notDigits(a) | notDigits(b))) != 0;
  };
  const std::size_t n = line.size();
  if (n < 8) {
    for (std::size_t i = 0; i < n; ++i) {
      if (drawn[i] != line[i] && (!isDigit(drawn[i]) || !isDigit(line[i]))) return false;
    }
    return true;
  }
  for (std::size_t i = 0; i + 8 <= n; i += 8) {
    if (differsInNonDigits(i)) return false;
  }
  return !differsInNonDigits(n - 8);  // the last eight bytes (overlapping is harmless: the test is per byte)
}

// Removes ANSI escape sequences (colours, cursor moves).
std::string withoutAnsi(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\x1b') {
      if (i + 1 < s.size() && s[i + 1] == '[') {
        i += 2;
        while (i < s.size() && !(s[i] >= '@' && s[i] <= '~')) ++i;
      } else {
        ++i;
      }
      continue;
    }
    out.push_back(s[i]);
  }
  return out;
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
  if (r.oom) {
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
    const OomNumbers& n = r.numbers;
    // Memory this process's PyTorch pool does not account for, beyond a CUDA context's worth.
    std::int64_t outside = 0;
    if (n.totalCapacity && n.free && n.allocatedByPytorch && !n.processInUse) {
      outside = *n.totalCapacity - *n.free - *n.allocatedByPytorch - n.reservedUnallocated.value_or(0);
    }
    if (n.otherProcesses > 0) {
      r.gpuStateSuspect = true;
      r.gpuStateReason = "another process holds GPU memory";
    } else if (n.totalCapacity && outside > std::max<std::int64_t>(*n.totalCapacity / 4, 3ll << 29)) {
      r.gpuStateSuspect = true;
      r.gpuStateReason = "most of the GPU's memory is held outside this process's PyTorch pool";
    } else if (n.free && n.triedToAllocate && *n.free > (1ll << 30) && *n.free > 10 * *n.triedToAllocate &&
               !contains(r.oomText, " allowed")) {  // a set_per_process_memory_fraction cap explains it
      r.gpuStateSuspect = true;
      r.gpuStateReason = "plenty is free, yet a small allocation failed: the allocator or driver state, not the config";
    } else if (n.totalCapacity && n.free && n.processInUse && *n.free < (64ll << 20) &&
               *n.processInUse < *n.totalCapacity / 4) {
      r.gpuStateSuspect = true;
      r.gpuStateReason = "the GPU is full but this process holds little of it";
    }
  } else {
    r.phase = Phase::None;
  }
  return r;
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
  OomNumbers& n = r.numbers;
  if (auto v = sizeAfter(line, "Tried to allocate")) n.triedToAllocate = v;
  if (auto v = sizeAfter(line, "you tried to allocate")) n.triedToAllocate = v;  // DefaultCPUAllocator
  if (contains(line, "total capacity;") || contains(line, "already allocated")) {
    // Formats A/B: "(GPU 0; T total capacity; A already allocated; F free; R reserved in total by PyTorch)"
    n.totalCapacity = sizeBefore(line, " total capacity");
    n.allocatedByPytorch = sizeBefore(line, " already allocated");
    n.free = sizeBefore(line, " free;");
    if (auto reserved = sizeBefore(line, " reserved in total by PyTorch"); reserved && n.allocatedByPytorch) {
      n.reservedUnallocated = *reserved - *n.allocatedByPytorch;
    }
  } else if (contains(line, "has a total capac")) {
    // Formats C/D/E.
    const std::size_t at = line.find("has a total capac");
    n.totalCapacity = sizeAfter(line, " of ", at);
    n.free = sizeAfter(line, " of which ", at);
    n.processInUse = sizeAfter(line, "this process has ");
    n.allocatedByPytorch = sizeAfter(line, "Of the allocated memory ");
    n.reservedUnallocated = sizeAfter(line, ", and ");
    if (!n.reservedUnallocated) n.reservedUnallocated = sizeAfter(line, " and ");
    for (std::size_t p = line.find("Process "); p != std::string_view::npos; p = line.find("Process ", p + 8)) {
      if (auto v = sizeAfter(line, " has ", p)) n.otherProcesses += *v;
    }
  } else if (kind == OomKind::MpsAlloc) {
    // "MPS backend out of memory (MPS allocated: A, other allocations: O, max allowed: M). Tried to allocate T"
    n.allocatedByPytorch = sizeAfter(line, "MPS allocated:");
    n.totalCapacity = sizeAfter(line, "max allowed:");
  }
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

// Forge first: it keeps A1111's banner and paths; ComfyUI before A1111 (its loader lines are its own).
void LogScanner::detectTool(std::string_view t) {
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

bool LogScanner::onRedraw(std::string_view raw) {
  if (redrawn_.line.empty() || !isRedraw(redrawn_.line, raw, redrawn_.descriptionEnd)) return false;
  ++result_.lines;
  onBarStep({}, digitsAt(raw, redrawn_.stepAt));  // the bar's kind is not Unnamed, the one kind that reads the line
  return true;
}

void LogScanner::onLine(std::string_view raw) {
  if (redraws_ == Redraws::Shortcut && onRedraw(raw)) return;
  redrawn_.line.clear();
  ++result_.lines;
  // Copy only the lines that need cleaning: ANSI colours, or docker compose's "service-1  | " prefix.
  std::string cleaned;
  std::string_view line = raw;
  if (raw.find('\x1b') != std::string_view::npos) {
    cleaned = withoutAnsi(raw);
    line = cleaned;
  }
  // The prefix's "  | " starts at the line's first space.
  if (const std::size_t bar = line.find(' '); bar < 48 && line.substr(bar).starts_with("  | ")) {
    line.remove_prefix(bar + 4);
  }
  // torchrun/accelerate prefix each rank's output with "[rank0]: ".
  if (line.starts_with("[rank") && line.find("]: ") != std::string_view::npos && line.find("]: ") < 12) {
    line.remove_prefix(line.find("]: ") + 3);
  }
  const std::string_view t = trimmed(line);
  if (t.empty()) return;

  // ComfyUI's allocation table, after "Allocation on device … would exceed allowed memory".
  if (comfyLinesLeft_ > 0) {
    --comfyLinesLeft_;
    OomNumbers& n = result_.numbers;
    if (t.starts_with("Currently allocated")) n.allocatedByPytorch = sizeAfter(t, ":");
    else if (t.starts_with("Requested")) n.triedToAllocate = sizeAfter(t, ":");
    else if (t.starts_with("Device limit")) n.totalCapacity = sizeAfter(t, ":");
    else if (t.starts_with("Free (according to CUDA)")) n.free = sizeAfter(t, ":");
  }

  // Progress bars first: they are nearly every line of a training log (tqdm redraws its line), and a
  // bar carries no error message, traceback frame or marker — except the kernel's "Killed" glued to
  // its end.
  if (auto bar = tqdmBar(t); bar && !t.ends_with("Killed")) {
    onBar(t, bar->description, bar->step);
    // A redraw of this line that differs only in digits past the description is this bar at another
    // step: remember the line (as read) to take such redraws without parsing them. Not for a line that
    // was cleaned (offsets would move), an unnamed bar (its phase reads the percentage) or while
    // ComfyUI's table is being read (its lines are counted).
    if (redraws_ == Redraws::Shortcut && cleaned.empty() && lastBarKind_ != BarKind::Unnamed && comfyLinesLeft_ == 0 &&
        raw.size() <= kMaxRedrawnLine) {
      const auto offset = [&](const char* at) { return static_cast<std::size_t>(at - raw.data()); };
      redrawn_.line.assign(raw);
      redrawn_.descriptionEnd = offset(bar->description.data() + bar->description.size());
      redrawn_.stepAt = offset(t.data() + bar->stepAt);
    }
    return;
  }

  traceback_.read(raw, t);

  if (toolLinesLeft_ > 0 && result_.tool != "forge") {
    --toolLinesLeft_;
    detectTool(t);
  }
  if ((result_.tool == "comfyui" || result_.tool == "forge") &&
      containsAny(t, {"loaded partially", "Swap Loaded", "loading in lowvram mode"})) {
    result_.offloaded = true;
    result_.offloadLine = static_cast<int>(result_.lines);
    result_.offloadText = std::string(t.substr(0, 400));
    // ComfyUI: "…, 4633.39 MB offloaded, …"; Forge: "… Swap Loaded (asynchronous method): 17496.00 MB, …".
    if (auto v = sizeBefore(t, " offloaded")) result_.offloadedBytes = std::max(result_.offloadedBytes, *v);
    if (const std::size_t swap = t.find("Swap Loaded"); swap != std::string_view::npos) {
      if (auto v = sizeAfter(t, "): ", swap)) result_.offloadedBytes = std::max(result_.offloadedBytes, *v);
    }
  }

  // Markers (AI Toolkit first, common ones of other tools after).
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

  // Out-of-memory messages.
  OomKind kind = OomKind::None;
  if (contains(t, "OOM during training step 3 times in a row")) {
    result_.abortedAfterRetries = true;
    kind = OomKind::CudaAlloc;
  } else if (contains(t, "OOM during training step, skipping batch")) {
    kind = OomKind::CudaAlloc;
  } else if (contains(t, "HIP out of memory")) {
    kind = OomKind::HipAlloc;
  } else if (contains(t, "MPS backend out of memory")) {
    kind = OomKind::MpsAlloc;
  } else if (contains(t, "Ran out of memory when regular VAE")) {
    // ComfyUI/Forge recover by decoding tiled: an OOM all the same, of the allocator in use.
    kind = mallocAsync_ ? OomKind::ComfyAlloc : OomKind::CudaAlloc;
    markerPhase_ = contains(t, "encoding") ? Phase::LatentCache : Phase::VaeDecode;
  } else if (containsAny(t, {"would exceed allowed memory", "Allocation on device"})) {
    kind = OomKind::ComfyAlloc;
    comfyLinesLeft_ = 8;
  } else if (contains(t, "CUDA out of memory")) {
    kind = OomKind::CudaAlloc;
  } else if (contains(t, "CUDA error: out of memory")) {
    kind = OomKind::CudaError;
  } else if (contains(t, "CUBLAS_STATUS_ALLOC_FAILED")) {
    kind = OomKind::CublasAlloc;
  } else if (containsAny(t, {"DefaultCPUAllocator: not enough memory", "Out of memory: Killed process", "paging file is too small",
                             "os error 1455", "exited with code 137", "exit status -9", "exit code 137", "exit code -9",
                             "returned -9"}) ||
             t.starts_with("MemoryError") || t == "Killed" || t.ends_with(" Killed") || t.ends_with("]Killed")) {
    kind = OomKind::HostRam;
  }
  if (kind != OomKind::None) {
    onOomText(t, kind);
    oomPhaseMarker_ = markerPhase_;
    if (auto fromTraceback = traceback_.phase()) oomTracebackPhase_ = fromTraceback;
    else if (kind != OomKind::CudaAlloc || !t.starts_with("Error running job")) oomTracebackPhase_.reset();
    stepAtOom_ = lastStep_;
    announcedAtOom_ = announcedStep_;
    announcedPhaseAtOom_ = announcedPhase_;
    return;
  }

  // Other fatal errors, for a run that died of something else.
  if (!result_.oom && (t.starts_with("Error running job:") || contains(t, "Error: ") || t.starts_with("ValueError") ||
                       containsAny(t, {"exited unexpectedly", "what():", "Segmentation fault"}) ||
                       t.starts_with("FileNotFoundError") || t.starts_with("RuntimeError") || t.starts_with("AssertionError"))) {
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
