// The typed vocabularies every box shares (DESIGN.md): phases and input kinds. Each is printed and
// parsed here and nowhere else, so a misspelt phase does not compile and an unknown one read from data
// or a label file is an error where it is read.
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace oomlint {

// What runs when memory peaks: the training phases, the generation stages, and what only a log names.
enum class Phase {
  // AI Toolkit's training phases (DESIGN.md), in the order a job runs them
  Load,
  Quantize,
  TeCache,
  LatentCache,
  BaselineSample,
  TrainStep,
  Sample,
  // a generation's stages (WebUI, ComfyUI)
  TextEncode,
  ControlnetPreprocess,
  Denoise,
  HiresDenoise,
  VaeEncode,
  VaeDecode,
  Upscale,  // a model upscale of the decoded image (ComfyUI's ImageUpscaleWithModel)
  // only a log names these
  Save,
  Inference,
  Unknown,  // the log ran out of memory, but where is not clear
  None,     // the log did not run out of memory
};

inline constexpr std::array kPhaseIds = {
    std::string_view("load"),        std::string_view("quantize"),   std::string_view("te_cache"),
    std::string_view("latent_cache"), std::string_view("baseline_sample"), std::string_view("train_step"),
    std::string_view("sample"),      std::string_view("text_encode"), std::string_view("controlnet_preprocess"),
    std::string_view("denoise"),     std::string_view("hires_denoise"), std::string_view("vae_encode"),
    std::string_view("vae_decode"),  std::string_view("upscale"),     std::string_view("save"),        std::string_view("inference"),
    std::string_view("unknown"),     std::string_view("none")};

static_assert(kPhaseIds.size() == static_cast<std::size_t>(Phase::None) + 1, "one id per phase");

constexpr std::string_view toString(Phase phase) { return kPhaseIds[static_cast<std::size_t>(phase)]; }

constexpr std::optional<Phase> parsePhase(std::string_view id) {
  for (std::size_t i = 0; i < kPhaseIds.size(); ++i) {
    if (kPhaseIds[i] == id) return static_cast<Phase>(i);
  }
  return std::nullopt;
}

// A sampling phase: previews before or during training.
constexpr bool isSampling(Phase phase) { return phase == Phase::BaselineSample || phase == Phase::Sample; }

// A training phase a job runs once, before its first step (the training step and the periodic samples recur).
constexpr bool runsOnce(Phase phase) {
  return phase == Phase::Load || phase == Phase::Quantize || phase == Phase::TeCache || phase == Phase::LatentCache ||
         phase == Phase::BaselineSample;
}

// What an input is, as the JSON report's `kind` names it.
enum class InputKind { AiToolkitJob, Log, WebUiArgs, ComfyUiWorkflow, SdScripts, MusubiTuner, OtherTrainer };

inline constexpr std::array kInputKindIds = {std::string_view("ai-toolkit-job"), std::string_view("log"),
                                             std::string_view("webui-args"), std::string_view("comfyui-workflow"),
                                             std::string_view("sd-scripts"), std::string_view("musubi-tuner"),
                                             std::string_view("other-trainer-config")};

static_assert(kInputKindIds.size() == static_cast<std::size_t>(InputKind::OtherTrainer) + 1, "one id per kind");

constexpr std::string_view toString(InputKind kind) { return kInputKindIds[static_cast<std::size_t>(kind)]; }

// The trainer a log names that AI Toolkit's levers and phases belong to (rules/logs.yaml trainers, LogAnalysis::trainer).
inline constexpr std::string_view kAiToolkitTrainer = "ai-toolkit";

}  // namespace oomlint
