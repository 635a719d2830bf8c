#include "systems/webui/analyze_webui.h"

#include "engine/verdict_findings.h"
#include "base/knowledge/knowledge.h"
#include "policy/suppressions.h"
#include "systems/webui/generation.h"
#include "systems/webui/generation_estimate.h"
#include "systems/webui/generation_plan.h"

namespace oomlint {

namespace {

void reportEstimate(const WebUiInput& in, const GenerationSetup& s, const GenerationEstimate& g,
                    const std::vector<PlanStep>& plan, const Advice& advice, Findings& findings) {
  const PlanStep* first = firstNeededStep(plan);
  const InfoField* size = findInfo(in, "Size");
  // Without an edit of its own a step points at the launch line, else the profile, else the size.
  const Range at = first && first->edit ? first->edit->range
                   : !in.flags.empty()  ? in.flags.front().range
                   : in.generation      ? in.generation->range
                   : size               ? size->range
                                        : Range{};
  const auto stepRange = [at](const PlanStep& step) { return step.edit ? step.edit->range : at; };
  const std::string sizeText = std::to_string(s.width) + "×" + std::to_string(s.height);
  reportVerdict(g.estimate, plan,
                VerdictAnchors{at, "", stepRange, stepRange,
                               "(" + std::string(displayName(s.tool)) + ", " + s.arch->label + " " + sizeText + ")",
                               g.attentionTooLarge ? "split attention needs more than 64 slices at " + sizeText +
                                                         " (\"Not enough memory, use lower resolution\"); "
                                                   : ""},
                findings);
  // Slowness belongs to the launch line, else to the tool the profile names.
  const Node* tool = in.generation ? in.generation->find("tool") : nullptr;
  const Range where = !in.flags.empty() ? in.flags.front().range : tool ? tool->range : at;
  if (g.streamedBytes > advice.negligibleBytes) {
    findings.report(RuleId::OL708, where, "",
                    std::string(displayName(s.tool)) + " keeps " + formatGiB(g.streamedBytes) +
                        " of weights in system RAM and streams them every step (partial loading): it fits, slowly; on "
                        "Windows keep \"CUDA - Sysmem Fallback Policy\" at Prefer No Sysmem Fallback to get an error rather "
                        "than a 10× slowdown");
  }
  if (g.decodeFallsBackToTiled) {
    findings.report(RuleId::OL708, where, "",
                    "the full VAE decode does not fit: " + std::string(displayName(s.tool)) +
                        " retries it in tiles (\"Ran out of memory when regular VAE decoding, retrying with tiled VAE decoding\")");
  }
  if (s.tool == WebUiTool::A1111 && s.offload == Offload::Lowvram && g.estimate.verdict == Verdict::Fits) {
    const Range flagAt = [&] {
      for (const auto& f : in.flags) {
        if (f.name == "--lowvram") return f.range;
      }
      return at;
    }();
    findings.report(RuleId::OL708, flagAt, "args", "--lowvram copies every UNet block to the GPU at every step (A1111 wiki: 5.4 → 1.0 it/s); "
                                             "check whether --medvram fits first");
  }
}

}  // namespace

FileReport analyzeWebUi(const Input& input, const std::optional<GpuTarget>& gpu, bool gpuGiven, bool suppressionsAllowed) {
  const Knowledge& k = knowledge();  // the system's one reach for the loaded knowledge; below, it is passed in
  FileReport file;
  file.path = input.path;
  file.kind = "webui-args";
  WebUiInput in = readWebUiInput(input.text);
  file.source = in.source;
  Findings findings;
  if (in.profile) {
    for (const auto& problem : in.profile->problems()) findings.report(problem.code, problem.range, "", problem.message);
    if (in.profile->fatal()) file.unreadable = true;
  }
  if (!file.unreadable) {
    if (auto setup = buildGeneration(in, k.webui, k.architectures, findings); setup && gpu) {
      GenerationEstimate g = estimateGeneration(*setup, k.webui, k.memory, *gpu);
      file.plan = generationPlan(in, *setup, *gpu, k.webui, k.memory);
      file.gpuGiven = gpuGiven;
      if (gpuGiven) reportEstimate(in, *setup, g, file.plan, k.advice, findings);
      file.estimate = std::move(g.estimate);
      if (setup->familyAssumed && gpuGiven) {
        findings.report(RuleId::OL706, in.flags.empty() ? Range{} : in.flags.front().range, "generation.model",
                        "no model named: estimated for A1111's default, SD1.5 at " + std::to_string(setup->width) + "×" +
                            std::to_string(setup->height) + " (a generation profile or the image's parameters say more)",
                        Severity::Info);
      }
    }
  }
  if (in.profile && !in.profile->fatal()) {
    applySuppressions(findings.all(), findSuppressions(*in.profile), suppressionsAllowed);
  }
  file.diagnostics = std::move(findings.all());
  sortDiagnostics(file.diagnostics);
  return file;
}

}  // namespace oomlint
