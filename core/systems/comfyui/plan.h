// The fix order for a workflow that does not fit, with ComfyUI's own levers, cheapest in quality first:
// fp8 weights (UNETLoader's weight_dtype), a smaller GGUF quantization, batch 1, fewer frames or a
// smaller latent, then the launch flags --lowvram, --novram and --reserve-vram. Each step re-estimates
// the setup; a workflow value is changed by an edit of its own bytes, a launch flag is advice (a
// workflow has no place for it). Tiled decoding is no step: ComfyUI retries a decode that runs out of
// memory in tiles by itself, so VAE Decode (Tiled) saves time, not memory; it is OL708's fix.
#pragma once

#include <optional>
#include <vector>

#include "base/knowledge/knowledge.h"
#include "report/estimate.h"
#include "report/plan_step.h"
#include "systems/comfyui/setup.h"

namespace oomlint {

std::vector<PlanStep> workflowPlan(const Workflow& workflow, const WorkflowSetup& setup, const GpuTarget& gpu, const Knowledge& knowledge,
                                   bool editable);

// UNETLoader's weight_dtype set to fp8_e4m3fn, where the model is stored in 16 bits (an fp8 file too, where ComfyUI
// loads it in 16 bits: `fileIn16Bits`, the estimate's): half the weights to stream when ComfyUI loads it partially.
// nullopt when the workflow has no such value.
std::optional<Fix> fp8WeightsFix(const Workflow& workflow, const WorkflowSetup& setup, bool fileIn16Bits, bool editable);

// VAEDecode made VAE Decode (Tiled) in the workflow's text: its type, and its tile settings at their
// defaults (API inputs or UI widgets_values). nullopt for another node.
std::optional<Fix> tiledDecodeFix(const Workflow& workflow, const WorkflowNode& decode, bool editable);

}  // namespace oomlint
