#include "webui/analyze_webui.h"

#include <algorithm>

#include "analyze.h"
#include "policy/suppressions.h"
#include "webui/generation.h"
#include "webui/generation_estimate.h"
#include "webui/generation_plan.h"

namespace oomlint {

namespace {

void reportEstimate(const WebUiInput& in, const GenerationSetup& s, const GenerationEstimate& g,
                    const std::vector<PlanStep>& plan, Findings& findings) {
  const Estimate& e = g.estimate;
  const PhaseEstimate& peak = e.peak();
  const PlanStep* first = nullptr;
  for (const auto& step : plan) {
    if (step.needed) {
      first = &step;
      break;
    }
  }
  const InfoField* size = findInfo(in, "Size");
  const Range at = first && first->edit ? first->edit->range
                   : !in.flags.empty()  ? in.flags.front().range
                   : in.generation      ? in.generation->range
                   : size               ? size->range
                                        : Range{};
  const std::string figures = formatGiB(peak.peakBytes) + " ± " + gib(peak.uncertaintyBytes) + " in " + peak.name + " on " +
                              e.gpu.describe() + " (" + std::string(displayName(s.tool)) + ", " + s.arch->label + " " +
                              std::to_string(s.width) + "×" + std::to_string(s.height) + ")";
  std::string advice = first ? "; first needed change: " + first->path + " " + first->fromJson + " → " + first->toJson : "";
  if (g.attentionTooLarge) {
    findings.report("OL501", at, first ? first->path : "",
                    "estimated out of memory: split attention needs more than 64 slices at " + std::to_string(s.width) + "×" +
                        std::to_string(s.height) + " (\"Not enough memory, use lower resolution\"); peak " + figures + advice);
  } else if (e.verdict == Verdict::Oom) {
    findings.report("OL501", at, first ? first->path : "", "estimated out of memory: peak " + figures + advice);
  } else if (e.verdict == Verdict::Borderline) {
    findings.report("OL502", at, first ? first->path : "",
                    "borderline: peak " + figures + " is within the estimate's uncertainty of the card" + advice);
  }
  if (e.verdict != Verdict::Fits) {
    for (const auto& step : plan) {
      findings.report("OL503", step.edit ? step.edit->range : at, step.path,
                      "drives the peak: " + step.path + " " + step.fromJson + " → " + step.toJson + " saves " +
                          formatGiB(step.savesBytes) + (step.needed ? " (needed)" : ""));
    }
  }
  // Slowness belongs to the launch line, else to the tool the profile names.
  const Node* tool = in.generation ? in.generation->find("tool") : nullptr;
  const Range where = !in.flags.empty() ? in.flags.front().range : tool ? tool->range : at;
  if (g.streamedBytes > 0.05 * (1u << 30)) {
    findings.report("OL708", where, "",
                    std::string(displayName(s.tool)) + " keeps " + formatGiB(g.streamedBytes) +
                        " of weights in system RAM and streams them every step (partial loading): it fits, slowly; on "
                        "Windows keep \"CUDA - Sysmem Fallback Policy\" at Prefer No Sysmem Fallback to get an error rather "
                        "than a 10× slowdown");
  }
  if (g.decodeFallsBackToTiled) {
    findings.report("OL708", where, "",
                    "the full VAE decode does not fit: " + std::string(displayName(s.tool)) +
                        " retries it in tiles (\"Ran out of memory when regular VAE decoding, retrying with tiled VAE decoding\")");
  }
  if (s.tool == WebUiTool::A1111 && s.offload == Offload::Lowvram && e.verdict == Verdict::Fits) {
    const Range flagAt = [&] {
      for (const auto& f : in.flags) {
        if (f.name == "--lowvram") return f.range;
      }
      return at;
    }();
    findings.report("OL708", flagAt, "args", "--lowvram copies every UNet block to the GPU at every step (A1111 wiki: 5.4 → 1.0 it/s); "
                                             "check whether --medvram fits first");
  }
}

}  // namespace

FileReport analyzeWebUi(const Input& input, const std::optional<GpuTarget>& gpu, bool gpuGiven, bool suppressionsAllowed) {
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
    if (auto setup = buildGeneration(in, findings); setup && gpu) {
      GenerationEstimate g = estimateGeneration(*setup, *gpu);
      file.plan = generationPlan(in, *setup, *gpu);
      file.gpuGiven = gpuGiven;
      if (gpuGiven) reportEstimate(in, *setup, g, file.plan, findings);
      file.estimate = std::move(g.estimate);
      if (setup->familyAssumed && gpuGiven) {
        findings.report("OL706", in.flags.empty() ? Range{} : in.flags.front().range, "generation.model",
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
  std::stable_sort(file.diagnostics.begin(), file.diagnostics.end(), [](const Diagnostic& a, const Diagnostic& b) {
    if (a.range.start.offset != b.range.start.offset) return a.range.start.offset < b.range.start.offset;
    return a.code < b.code;
  });
  return file;
}

}  // namespace oomlint
