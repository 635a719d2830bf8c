// OL708 slow-offload: the generation fits only by streaming weights from system RAM, by tiling its
// decode, or with --lowvram's block swapping: it runs, much more slowly.
#include "systems/webui/checks/checks.h"

namespace oomlint {

void checkSlowOffload(const WebUiEstimateContext& c, Findings& findings) {
  const GenerationSetup& s = c.setup;
  const GenerationEstimate& g = c.estimate;
  const std::string tool(displayName(s.tool));
  // Slowness belongs to the launch line, else to the tool the profile names.
  const Node* toolNode = c.input.generation ? c.input.generation->find("tool") : nullptr;
  const Range where = !c.input.flags.empty() ? c.input.flags.front().range : toolNode ? toolNode->range : c.anchor;
  if (g.streamedBytes > c.advice.negligibleBytes) {
    findings.report(RuleId::OL708, where, {},
                    tool + " keeps " + formatGiB(g.streamedBytes) +
                        " of weights in system RAM and streams them every step (partial loading): it fits, slowly; on "
                        "Windows keep \"CUDA - Sysmem Fallback Policy\" at Prefer No Sysmem Fallback to get an error rather "
                        "than a 10× slowdown");
  }
  if (g.decodeFallsBackToTiled) {
    findings.report(RuleId::OL708, where, {},
                    "the full VAE decode does not fit: " + tool +
                        " retries it in tiles (\"Ran out of memory when regular VAE decoding, retrying with tiled VAE decoding\")");
  }
  if (s.tool == WebUiTool::A1111 && s.offload == Offload::Lowvram && g.estimate.verdict == Verdict::Fits) {
    findings.report(RuleId::OL708, s.offloadFlag ? s.offloadFlag->range : c.anchor, KeyPath::of({"args"}),
                    "--lowvram copies every UNet block to the GPU at every step (" + c.webui.lowvramSpeed +
                        "); check whether --medvram fits first");
  }
}

}  // namespace oomlint
