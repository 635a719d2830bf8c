// A generation job as the memory model sees it: the tool, the model family, the image size, the
// passes (hires fix), ControlNet units and every launch flag or setting that moves weights or
// activations. Built from a WebUiInput; the checks report what cannot be read or is wrong.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/findings.h"
#include "base/knowledge/architectures.h"
#include "base/knowledge/webui.h"
#include "systems/webui/webui_input.h"

namespace oomlint {

struct ControlNetUnit {
  std::string name;
  const ControlNetModel* model = nullptr;
  bool lowVram = false;
  const Preprocessor* preprocessor = nullptr;  // the annotator its module runs, if any
};

enum class Offload { Normal, Medvram, Lowvram };                 // A1111
enum class LoadMode { Normal, Low, NoVram, High, GpuOnly };      // Forge / ComfyUI memory managers
enum class VaeDecode { Full, Tiled, Taesd, Cpu };

struct GenerationSetup {
  WebUiTool tool = WebUiTool::A1111;
  const GenerationFamily* family = nullptr;
  const Architecture* arch = nullptr;
  bool familyAssumed = false;  // nothing named the model: A1111's default SD1.5
  long width = 512, height = 512;
  int batchSize = 1;
  double hiresScale = 0;       // 0: no hires pass
  bool hiresLatent = true;     // a latent upscaler (no decode/encode between the passes)
  std::vector<ControlNetUnit> controlnets;
  // A1111
  Offload offload = Offload::Normal;
  bool medvramSdxlOnly = false;  // --medvram-sdxl: medvram for SDXL models only
  std::string attention;         // backend id
  bool fp32Weights = false;      // --no-half / --precision full / --all-in-fp32 / --force-fp32
  bool fp32Vae = false;          // --no-half-vae, --vae-in-fp32, or A1111's SDXL fp32 fallback
  bool vaeFp16Fix = false;       // an fp16-safe VAE (madebyollin/sdxl-vae-fp16-fix)
  bool batchCondUncond = true;   // A1111 1.6+ setting (Optimizations › Batch cond/uncond)
  VaeDecode vaeDecode = VaeDecode::Full;
  // Forge / ComfyUI
  LoadMode loadMode = LoadMode::Normal;
  bool alwaysOffload = false;
  bool unetFp8 = false;
  bool textEncoderFp8 = false;
  bool textEncoderOnCpu = false;   // ComfyUI --lowvram
  double gpuWeightsBytes = 0;      // Forge's GPU Weights slider; 0: its default (total − 1024 MB)
  double reserveBytes = -1;        // ComfyUI --reserve-vram; <0: its default
  bool runsOnCpu = false;          // --use-cpu all / --cpu / --always-cpu
  bool controlnetOnCpu = false;    // --use-cpu controlnet: ControlNet models and annotators
};

// Reads the setup and reports OL7xx findings (unknown / ignored / deprecated / conflicting flags,
// unknown models, settings that cost memory). nullopt when nothing to estimate can be read.
std::optional<GenerationSetup> buildGeneration(const WebUiInput& input, const WebUiKnowledge& webui,
                                               const Architectures& architectures, Findings& findings);

}  // namespace oomlint
