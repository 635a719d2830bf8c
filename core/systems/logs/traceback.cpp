#include "systems/logs/traceback.h"

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <string>

#include "base/text/ascii.h"

namespace oomlint {

namespace {

bool containsAny(std::string_view s, std::initializer_list<std::string_view> words) {
  return std::any_of(words.begin(), words.end(), [&](std::string_view w) { return s.find(w) != std::string_view::npos; });
}

constexpr Phase phaseOf(FrameClue clue) {
  switch (clue) {
    case FrameClue::Sample: return Phase::Sample;
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
  while (end < t.size() && (std::isalnum(static_cast<unsigned char>(t[end])) || t[end] == '_' || t[end] == '<' || t[end] == '>')) ++end;
  return t.substr(in + 4, end - in - 4);
}

// Source lines quoted in a traceback that name what runs ("vae.decode(", "decode_tiled_").
std::optional<FrameClue> clueOfCode(std::string_view code) {
  const std::string c = lowercase(code);
  if (containsAny(c, {"vae.decode(", "decode_tiled", "first_stage_model.decode", "vae_decode"})) return FrameClue::VaeDecode;
  if (containsAny(c, {"vae.encode(", "model.encode(", "encode_tiled", "cache_latents"})) return FrameClue::LatentCache;
  return std::nullopt;
}

// What a traceback frame's function name says the process was doing.
std::optional<FrameClue> clueOfFrame(std::string_view fn) {
  const std::string f = lowercase(fn);
  if (f == "decode" || f == "_decode") return FrameClue::VaeDecode;
  if (containsAny(f, {"text_encoder"})) return FrameClue::TeCache;
  if (containsAny(f, {"common_ksampler", "launch_sampling", "sample_euler", "sample_dpm", "ksampler"})) return FrameClue::Inference;
  if (containsAny(f, {"training_step", "validation_step", "shared_step"})) return FrameClue::TrainStep;
  if (containsAny(f, {"prepare_model", "_prepare_one"})) return FrameClue::Load;
  if (containsAny(f, {"load_models_gpu", "load_model_gpu"})) return FrameClue::ModelLoad;
  if (f == "_apply" || f == "convert") return FrameClue::Load;  // Module.to(): weights moving onto the GPU
  if (f == "train") return FrameClue::TrainOuter;
  if (containsAny(f, {"quantize", "quantiz"})) return FrameClue::Quantize;
  if (containsAny(f, {"cache_latents", "cache_latent", "encode_images", "encode_video", "vae_encode", "encode_first_stage"})) {
    return FrameClue::LatentCache;
  }
  if (containsAny(f, {"cache_text", "encode_prompt", "encode_tokens", "text_encoder_outputs", "get_text_embeddings"})) return FrameClue::TeCache;
  if (containsAny(f, {"decode_first_stage", "vae_decode", "decode_tiled", "decode_latents", "_decode"})) return FrameClue::VaeDecode;
  if (containsAny(f, {"generate_images", "sample_images", "log_validation", "validation"})) return FrameClue::Sample;
  if (containsAny(f, {"backward", "train_loop", "hook_train_loop", "training_step", "train_step"})) return FrameClue::TrainStep;
  if (containsAny(f, {"load_model", "from_pretrained", "load_state_dict", "load_checkpoint", "load_models", "load_file",
                      "load_target_model", "load_unet", "load_vae", "load_text_encoder", "move_to", "load_model_gpu"})) {
    return FrameClue::Load;
  }
  return std::nullopt;
}

}  // namespace

void Traceback::read(std::string_view raw, std::string_view t) {
  if (t.starts_with("Traceback (most recent call last)")) frames_.clear();
  if (t.starts_with("File \"") && t.find(", in ") != std::string_view::npos) {
    frames_.push_back({clueOfFrame(t.substr(t.rfind(", in ") + 5)), false});
  } else if (auto frame = richFrame(t)) {
    frames_.push_back({clueOfFrame(*frame), false});  // rich's boxed traceback
  } else if (!frames_.empty() && (raw.starts_with("    ") || t.starts_with("│"))) {
    if (auto clue = clueOfCode(t.substr(0, 200))) frames_.push_back({clue, true});  // the source line under the last frame
  }
  if (frames_.size() > kMaxFrames) frames_.erase(frames_.begin());
}

std::optional<Phase> Traceback::phase() const {
  for (const bool quoted : {false, true}) {
    std::optional<FrameClue> strongest;
    for (const auto& frame : frames_) {
      if (frame.quoted == quoted && frame.clue && (!strongest || *frame.clue < *strongest)) strongest = frame.clue;
    }
    if (strongest) return phaseOf(*strongest);
  }
  return std::nullopt;
}

}  // namespace oomlint
