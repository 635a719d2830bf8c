// The VRAM of one generation, phase by phase (text encoding, denoising, the hires pass, VAE decode),
// following each tool's real offloading: A1111's medvram/lowvram swapping, ControlNet's Low VRAM hook,
// Forge's and ComfyUI's partial loading with their inference reserves and tiled-VAE fallback.
#pragma once

#include "report/estimate.h"
#include "base/knowledge/memory_model.h"
#include "base/knowledge/webui.h"
#include "systems/webui/setup.h"

namespace oomlint {

struct GenerationEstimate {
  Estimate estimate;
  double streamedBytes = 0;        // weights a memory manager leaves in system RAM (slow, not an OOM)
  bool attentionTooLarge = false;  // Doggettx would need more than 64 slices: "Not enough memory"
  bool decodeFallsBackToTiled = false;
  bool unetFp8FileIn16Bits = false;  // ComfyUI loads the model's fp8 file in 16 bits on this card (GenerationSetup::unetDtypeByTool)
};

// The tools' constants (webui) and the memory model's (memory) are passed in, so the arithmetic can be
// checked on synthetic ones (tests/webui_estimate_test.cpp).
GenerationEstimate estimateGeneration(const GenerationSetup& s, const WebUiKnowledge& webui, const MemoryModel& memory,
                                      const GpuTarget& gpu);

// Phase ids of a generation (DESIGN.md's vocabulary, extended for generation).
inline constexpr Phase kTextEncodePhase = Phase::TextEncode;
inline constexpr Phase kPreprocessPhase = Phase::ControlnetPreprocess;
inline constexpr Phase kDenoisePhase = Phase::Denoise;
inline constexpr Phase kHiresPhase = Phase::HiresDenoise;
inline constexpr Phase kVaeEncodePhase = Phase::VaeEncode;
inline constexpr Phase kVaeDecodePhase = Phase::VaeDecode;
inline constexpr Phase kUpscalePhase = Phase::Upscale;

}  // namespace oomlint
