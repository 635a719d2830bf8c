#include "systems/logs/traceback.h"

#include <algorithm>
#include <string>

#include "base/text/ascii.h"

namespace oomlint {

namespace {

constexpr Phase phaseOf(FrameClue clue) {
  switch (clue) {
    case FrameClue::Sample: return Phase::Sample;
    case FrameClue::Save: return Phase::Save;
    case FrameClue::Quantize: return Phase::Quantize;
    case FrameClue::LatentCache: return Phase::LatentCache;
    case FrameClue::TeCache: return Phase::TeCache;
    case FrameClue::ModelLoad: return Phase::Load;
    case FrameClue::VaeDecode: return Phase::VaeDecode;
    case FrameClue::TrainStep: return Phase::TrainStep;
    case FrameClue::Inference: return Phase::Inference;
    case FrameClue::Load: return Phase::Load;
    case FrameClue::TrainOuter: return Phase::TrainStep;
  }
  return Phase::Unknown;
}

// "│ C:\kohya_ss\library\train_util.py:1764 in cache_latents   │" → "cache_latents"
std::optional<std::string_view> richFrame(std::string_view t) {
  if (!t.starts_with("│")) return std::nullopt;
  const std::size_t py = t.find(".py:");
  if (py == std::string_view::npos) return std::nullopt;
  const std::size_t in = t.find(" in ", py);
  if (in == std::string_view::npos) return std::nullopt;
  std::size_t end = in + 4;
  while (end < t.size() && (isAsciiAlnum(t[end]) || t[end] == '_' || t[end] == '<' || t[end] == '>')) ++end;
  return t.substr(in + 4, end - in - 4);
}

// The clue of the first entry whose words the lowercased text has.
std::optional<FrameClue> clueOf(std::string_view text, const std::vector<FrameWords>& table) {
  const std::string lower = lowercase(text);
  for (const auto& entry : table) {
    if (entry.test.matches(lower)) return entry.clue;
  }
  return std::nullopt;
}

}  // namespace

bool Traceback::read(std::string_view raw, std::string_view t) {
  constexpr std::string_view kHeader = "Traceback (most recent call last)";
  const bool header = t.starts_with(kHeader) || (t.starts_with("╭") && t.find(kHeader) != std::string_view::npos);
  if (header) frames_.clear();
  if (t.starts_with("File \"") && t.find(", in ") != std::string_view::npos) {
    frames_.push_back({clueOf(t.substr(t.rfind(", in ") + 5), markers_.frames), false});
  } else if (auto frame = richFrame(t)) {
    frames_.push_back({clueOf(*frame, markers_.frames), false});  // rich's boxed traceback
  } else if ((!frames_.empty() && raw.starts_with("    ")) || t.starts_with("│")) {
    // The source line under the last frame; in rich's box, also when the paste starts below the frame.
    if (auto clue = clueOf(t.substr(0, 200), markers_.quotedCode)) frames_.push_back({clue, true});
  }
  if (frames_.size() > kMaxFrames) frames_.erase(frames_.begin());
  return header;
}

std::optional<FrameClue> Traceback::strongest(bool quoted) const {
  std::optional<FrameClue> best;
  for (const auto& frame : frames_) {
    if (frame.quoted == quoted && frame.clue && (!best || *frame.clue < *best)) best = frame.clue;
  }
  return best;
}

std::optional<Phase> Traceback::phase() const {
  for (const bool quoted : {false, true}) {
    if (const auto clue = strongest(quoted)) return phaseOf(*clue);
  }
  return std::nullopt;
}

std::optional<Phase> Traceback::phaseBeside(std::optional<Phase> marker) const {
  if (marker && !strongest(true) && strongest(false) == FrameClue::TrainOuter) return std::nullopt;
  return phase();
}

}  // namespace oomlint
