// OL708 slow-offload, for a workflow: it fits only because ComfyUI loads the model partially (the rest
// streams from system RAM every step) or retries the decode in tiles.
#include "systems/comfyui/checks/checks.h"

#include "engine/estimate_core.h"
#include "systems/comfyui/plan.h"

namespace oomlint {

void checkWorkflowSlowOffload(const WorkflowEstimateContext& c, Findings& findings) {
  const WorkflowSetup& s = c.setup;
  if (c.estimate.streamedBytes > c.advice.negligibleBytes && s.model != nullptr) {
    // Stored in 16 bits where the loader can store fp8: half the weights to stream (the fix).
    std::optional<Fix> fp8 = fp8WeightsFix(c.workflow, s, c.estimate.unetFp8FileIn16Bits, c.editable);
    // Dynamic VRAM caches what the work leaves and copies the rest in each step; the older manager loads to a budget.
    const std::string streamed = formatGiB(c.estimate.streamedBytes);
    const std::string how = s.generation.loadMode == LoadMode::Dynamic
                                ? "ComfyUI copies in " + streamed + " of weights each step that its dynamic VRAM cannot keep cached beside the work"
                                : "ComfyUI keeps " + streamed + " of weights in system RAM and streams them every step (\"loaded partially\")";
    findings.report(RuleId::OL708, s.model->range, s.model->path,
                    how + ": it fits, slowly" +
                        (fp8 ? "; UNETLoader's weight_dtype fp8_e4m3fn halves what it streams" : ""),
                    std::nullopt, std::move(fp8));
  }
  if (c.estimate.decodeFallsBackToTiled && s.decode != nullptr) {
    findings.report(RuleId::OL708, s.decode->range, s.decode->path,
                    "the full VAE decode does not fit: ComfyUI retries it in tiles (\"Ran out of memory when regular VAE "
                    "decoding, retrying with tiled VAE decoding\"); VAE Decode (Tiled) does it at once",
                    std::nullopt, tiledDecodeFix(c.workflow, *s.decode, c.editable));
  }
}

}  // namespace oomlint
