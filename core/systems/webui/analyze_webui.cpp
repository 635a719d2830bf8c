#include "systems/webui/analyze_webui.h"

#include <algorithm>

#include "base/knowledge/knowledge.h"
#include "engine/verdict_findings.h"
#include "policy/suppressions.h"
#include "systems/webui/checks/checks.h"
#include "systems/webui/generation_estimate.h"
#include "systems/webui/generation_plan.h"
#include "systems/webui/setup.h"

namespace oomlint {

namespace {

// How far the setup's (adaptive) attention backend slices before it gives up.
std::string maxSlices(const GenerationSetup& s, const WebUiKnowledge& webui) {
  const AttentionBackend* b = webui.backend(s.attention);
  return std::to_string(b ? b->maxSlices : 0);
}

// OL501–OL503 at the plan's steps, then the estimate's own checks. Without an edit of its own a step
// points at the launch line, else the profile, else the size.
void reportEstimate(const WebUiInput& in, const GenerationSetup& s, const GenerationEstimate& g,
                    const std::vector<PlanStep>& plan, const Knowledge& k, Findings& findings) {
  const PlanStep* first = firstNeededStep(plan);
  const InfoField* size = findInfo(in, "Size");
  const Range at = first && !first->fix.edits.empty() ? first->fix.edits.front().range
                   : !in.flags.empty()  ? in.flags.front().range
                   : in.generation      ? in.generation->range
                   : size               ? size->range
                                        : Range{};
  const auto stepRange = [at](const PlanStep& step) { return step.fix.edits.empty() ? at : step.fix.edits.front().range; };
  const std::string sizeText = std::to_string(s.width) + "×" + std::to_string(s.height);
  reportVerdict(g.estimate, plan,
                VerdictAnchors{.fallback = at,
                               .stepRange = stepRange,
                               .verdictRange = stepRange,
                               .context = "(" + std::string(displayName(s.tool)) + ", " + s.arch->label + " " + sizeText + ")",
                               .cause = g.attentionTooLarge ? "split attention needs more than " + maxSlices(s, *k.webui) + " slices at " +
                                                                  sizeText + " (\"Not enough memory, use lower resolution\"); "
                                                            : ""},
                findings);
  const WebUiEstimateContext context{in, s, g, at, *k.webui, k.advice};
  for (const auto& check : webuiEstimateChecks()) check.run(context, findings);
}

}  // namespace

FileReport analyzeWebUi(const Input& input, const SystemContext& context) {
  const Knowledge& k = context.knowledge;
  const std::optional<GpuTarget>& gpu = context.gpu;
  const bool gpuGiven = context.gpuGiven;
  FileReport file;
  file.path = input.path;
  file.kind = InputKind::WebUiArgs;
  WebUiInput in = readWebUiInput(input.text);
  file.source = in.source;
  Findings findings;
  if (in.profile) {
    for (const auto& problem : in.profile->problems()) findings.report(problem.code, problem.range, {}, problem.message);
    if (in.profile->fatal()) file.unreadable = true;
  }
  if (!file.unreadable) {
    const GenerationSetup setup = setupGeneration(in, *k.webui, k.architectures);
    const WebUiCheckContext checkContext{in, setup, *k.webui};
    for (const auto& check : webuiChecks()) check.run(checkContext, findings);
    // A ComfyUI launch line given with workflows alone runs them (comfyui/analyze_workflow.cpp): its flags are in
    // their estimates, and an estimate of its own would be of a default model they do not load.
    const bool launchOfWorkflows =
        setup.tool == WebUiTool::ComfyUi && in.hasLaunchLine && !in.profile && in.info.empty() && !context.companions.empty() &&
        std::all_of(context.companions.begin(), context.companions.end(), [](const Companion& c) { return c.kind == InputKind::ComfyUiWorkflow; });
    if (setup.estimable() && gpu && !launchOfWorkflows) {
      GenerationEstimate g = estimateGeneration(setup, *k.webui, k.memory, *gpu);
      file.plan = generationPlan(in, setup, *gpu, *k.webui, k.memory);
      file.gpuGiven = gpuGiven;
      if (gpuGiven) reportEstimate(in, setup, g, file.plan, k, findings);
      file.estimate = std::move(g.estimate);
    }
  }
  if (in.profile && !in.profile->fatal()) {
    applySuppressions(findings.all(), findSuppressions(*in.profile), context.suppressionsAllowed);
  }
  file.diagnostics = std::move(findings.all());
  sortDiagnostics(file.diagnostics);
  return file;
}

}  // namespace oomlint
