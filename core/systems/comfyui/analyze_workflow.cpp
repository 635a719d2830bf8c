#include "systems/comfyui/analyze_workflow.h"

#include <algorithm>
#include <optional>
#include <string>

#include "engine/verdict_findings.h"
#include "systems/comfyui/checks/checks.h"
#include "systems/comfyui/plan.h"
#include "systems/comfyui/png_text.h"
#include "systems/comfyui/setup.h"
#include "systems/webui/generation_estimate.h"
#include "systems/webui/webui_input.h"

namespace oomlint {

namespace {

// OL501–OL503 at the plan's steps: a step with an edit points at its value, a launch flag at the model.
void reportEstimate(const WorkflowSetup& s, const GenerationEstimate& g, const std::vector<PlanStep>& plan, Findings& findings) {
  const PlanStep* first = firstNeededStep(plan);
  const Range model = s.model ? s.model->range : Range{};
  const Range at = first && !first->fix.edits.empty() ? first->fix.edits.front().range : model;
  const auto stepRange = [model](const PlanStep& step) { return step.fix.edits.empty() ? model : step.fix.edits.front().range; };
  std::string size = std::to_string(s.generation.width) + "×" + std::to_string(s.generation.height);
  if (s.generation.frames > 1) size += "×" + std::to_string(s.generation.frames) + " frames";
  reportVerdict(g.estimate, plan, VerdictAnchors{.fallback = at,
                                                 .fallbackPath = s.model ? s.model->path : KeyPath{},
                                                 .stepRange = stepRange,
                                                 .verdictRange = stepRange,
                                                 .context = "(ComfyUI, " + s.label + " " + size + ")"},
                findings);
}

// The launch line ComfyUI runs the workflow under (`python main.py --lowvram`, a run_nvidia_gpu.bat). A call whose
// other inputs are workflows and one ComfyUI launch line is one ComfyUI job; in any other mix (a folder of configs,
// logs and fixtures checked at once) no line is taken, nor is one of A1111 or Forge, whose flags mean other things.
struct LaunchLine {
  WebUiInput input;
  std::string path;
  bool fromLog = false;  // the mode the log's start-up lines say ran: the manager is known, whatever the release
};

std::optional<LaunchLine> launchLineOf(const SystemContext& context, const WebUiKnowledge& webui, const Architectures& architectures) {
  const Input* line = nullptr;
  for (const auto& companion : context.companions) {
    if (companion.kind == InputKind::ComfyUiWorkflow) continue;
    if (companion.kind != InputKind::WebUiArgs || line != nullptr) return std::nullopt;
    line = companion.input;
  }
  if (line == nullptr) return std::nullopt;
  WebUiInput in = readWebUiInput(line->text);
  if (!in.hasLaunchLine || in.profile || !in.info.empty()) return std::nullopt;
  if (setupGeneration(in, webui, architectures).tool != WebUiTool::ComfyUi) return std::nullopt;
  return LaunchLine{std::move(in), line->path};
}

// The memory mode ComfyUI's log says it ran in (a workflow checked with the log of its run, --log), as the launch line
// of the flag that sets it: "Set vram state to: NO_VRAM" runs as --novram.
// The attention ComfyUI picks with no attention flag, by the card's vendor (webui.yaml comfy_xpu_attention,
// comfy_amd_attention): PyTorch's on NVIDIA, its math kernel on Intel's XPU and on AMD targets PyTorch's ROCm build
// has no fused kernel for, sub-quadratic on AMD targets ComfyUI does not run PyTorch attention on.
std::string attentionOn(const GpuTarget& gpu, const std::string& otherwise, const WebUiKnowledge& w) {
  const auto listed = [&](const std::vector<KnowledgeText>& archs) { return std::find(archs.begin(), archs.end(), gpu.arch) != archs.end(); };
  if (gpu.vendor == "intel") return w.comfyXpuAttention;
  if (gpu.vendor != "amd") return otherwise;
  if (!listed(w.comfyAmdPytorchArchs)) return w.comfyAmdAttentionOtherwise;
  return listed(w.comfyAmdMathArchs) ? std::string(w.comfyAmdAttentionMath) : otherwise;
}

std::optional<LaunchLine> launchOfLog(const LogAnalysis* log) {
  if (log == nullptr || log->tool != "comfyui" || log->vramState.empty()) return std::nullopt;
  LaunchLine line{readWebUiInput("python main.py " + log->launchArgs), "its log: Set vram state to: " + log->vramState, true};
  return line;
}

// The ComfyUI release that runs the workflow, where the job says: the one its log printed, else the newest that saved
// one of its core nodes (the one that runs it is that or a later one).
struct ComfyRelease {
  ReleaseVersion version;
  std::string text;  // "ComfyUI 0.16.4 ran it (its log)"
};

std::optional<ComfyRelease> releaseOf(const Workflow& w, const LogAnalysis* log) {
  if (log != nullptr) {
    if (const auto ran = ReleaseVersion::parse(log->toolVersion)) return ComfyRelease{*ran, "ComfyUI " + ran->text() + " ran it (its log)"};
  }
  if (w.savedBy) return ComfyRelease{*w.savedBy, "its core nodes saved by ComfyUI " + w.savedBy->text()};
  return std::nullopt;
}

// Which memory manager the estimate follows (the launch, the log, or the release chose it: applyLaunchFlags), and
// the release where the job says it.
std::string managerAssumed(const GenerationSetup& g, const std::optional<ComfyRelease>& release, const ComfyUiKnowledge& comfyui) {
  std::string text = g.loadMode == LoadMode::Dynamic ? comfyui.assumesDynamic : comfyui.assumes;
  if (release) text += "; " + release->text;
  return text;
}

// What the estimate assumes of the launch: the launch line's flags, else ComfyUI's defaults.
std::string launchAssumed(const std::optional<LaunchLine>& launch) {
  if (!launch) return "ComfyUI's defaults (no launch flags: give its launch line with the workflow for them)";
  if (launch->input.flags.empty()) return "ComfyUI launched without flags (" + launch->path + ")";
  std::string flags;
  for (const auto& f : launch->input.flags) flags += (flags.empty() ? "" : " ") + f.name + (f.value.empty() ? "" : " " + f.value);
  return "ComfyUI launched with " + flags + " (" + launch->path + ")";
}

// OL607: the log ran out of memory in a stage this workflow's estimate keeps well under the card (uncertainty
// included): the GPU's state or another workflow, not these settings. A decode is the decode; any other generating
// stage is the sampling, of either pass.
void compareWithLog(const LogAnalysis& log, const Estimate& e, Range at, const Advice& advice, Findings& findings) {
  const std::optional<std::int64_t> capacity = log.cardCapacity();
  if (!log.oom || log.kind == OomKind::HostRam || !capacity) return;
  const bool decode = log.phase == Phase::VaeDecode;
  if (!decode && log.phase != Phase::Inference && log.phase != Phase::Sample && log.phase != Phase::Denoise) return;
  const PhaseEstimate* stage = nullptr;
  for (const auto& p : e.phases) {
    const bool matches = decode ? p.phase == Phase::VaeDecode : (p.phase == Phase::Denoise || p.phase == Phase::HiresDenoise);
    if (matches && (stage == nullptr || p.highBytes > stage->highBytes)) stage = &p;
  }
  if (stage == nullptr || stage->highBytes >= advice.logDisagreementFraction * static_cast<double>(*capacity)) return;
  findings.report(RuleId::OL607, at, {},
                  "the log ran out of memory in " + std::string(toString(log.phase)) + " on a " + formatGiB(static_cast<double>(*capacity)) +
                      " card, but this workflow's " + std::string(toString(stage->phase)) + " is estimated at " + formatRange(*stage) +
                      ": another process was using the GPU, or the log comes from a different workflow");
}

}  // namespace

FileReport analyzeWorkflow(const Input& input, const SystemContext& context) {
  const Knowledge& k = context.knowledge;
  FileReport file;
  file.path = input.path;
  file.kind = InputKind::ComfyUiWorkflow;
  Findings findings;
  // A PNG's workflow is read from its text chunk; positions are then in that chunk's JSON.
  const bool png = isPng(input.text);
  std::string json = input.text;
  if (png) {
    PngWorkflow extracted = workflowFromPng(input.text);
    if (!extracted.error.empty()) {
      file.unreadable = true;
      findings.report(RuleId::OL905, {}, {}, extracted.error);
      file.diagnostics = std::move(findings.all());
      return file;
    }
    json = std::move(extracted.json);
  }
  const Workflow workflow = readWorkflow(std::move(json), *k.comfyui, context.limits);
  file.source = workflow.doc->sharedSource();
  for (const auto& p : workflow.doc->problems()) findings.report(p.code, p.range, {}, png ? "in the PNG's workflow: " + p.message : p.message);
  for (const auto& p : workflow.problems) findings.report(RuleId::OL905, p.range, {}, p.message);
  if (workflow.doc->fatal() || workflow.nodes.empty()) {
    file.unreadable = true;
    if (findings.all().empty()) findings.report(RuleId::OL905, {}, {}, "the workflow has no nodes");
    file.diagnostics = std::move(findings.all());
    sortDiagnostics(file.diagnostics);
    return file;
  }
  const auto setup = setupWorkflow(workflow, *k.comfyui, *k.webui, k.architectures);
  std::optional<GpuTarget> gpu = context.gpu;
  file.gpuGiven = context.gpuGiven;
  if (const LogAnalysis* log = context.attachedLog) {
    file.log = *log;
    // The card the run really had beats an assumed one.
    if (const auto capacity = log->cardCapacity(); !file.gpuGiven && capacity) {
      gpu = GpuTarget{"GPU in the log", static_cast<std::uint64_t>(*capacity)};
      file.gpuGiven = true;
    }
  }
  // The launch line given with the workflow, else the mode the log of its run names (its start-up lines say which
  // manager ran, so the release that saved the nodes decides nothing then).
  std::optional<LaunchLine> launch = launchLineOf(context, *k.webui, k.architectures);
  if (!launch) launch = launchOfLog(context.attachedLog);
  const std::optional<ComfyRelease> release = releaseOf(workflow, context.attachedLog);
  if (setup->estimable()) {
    GenerationSetup& g = setup->generation;
    if (release && (!launch || !launch->fromLog)) g.comfyRelease = release->version;
    g.comfyDynamicVramCard = !gpu || gpu->nvidiaOrUnnamed();
    if (gpu) g.attention = attentionOn(*gpu, g.attention, *k.webui);  // an attention flag below still wins
    const WebUiInput noLaunchLine;
    applyLaunchFlags(g, launch ? launch->input : noLaunchLine, *k.webui);
  }
  const WorkflowCheckContext checkContext{workflow, *setup};
  for (const auto& check : workflowChecks()) check.run(checkContext, findings);
  if (setup->estimable() && gpu) {
    GenerationEstimate g = estimateGeneration(setup->generation, *k.webui, k.memory, *gpu);
    file.plan = workflowPlan(workflow, *setup, *gpu, k, !png);
    if (file.gpuGiven) {
      reportEstimate(*setup, g, file.plan, findings);
      const WorkflowEstimateContext estimateContext{workflow, *setup, g, k.advice, !png};
      for (const auto& check : workflowEstimateChecks()) check.run(estimateContext, findings);
    }
    if (file.log) compareWithLog(*file.log, g.estimate, setup->sampler ? setup->sampler->range : Range{}, k.advice, findings);
    file.estimate = std::move(g.estimate);
    file.estimate->assumes = managerAssumed(setup->generation, release, *k.comfyui) + "; " + launchAssumed(launch);
  }
  file.diagnostics = std::move(findings.all());
  sortDiagnostics(file.diagnostics);
  return file;
}

}  // namespace oomlint
