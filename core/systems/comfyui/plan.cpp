#include "systems/comfyui/plan.h"

#include <algorithm>
#include <cmath>

#include "base/text/ascii.h"
#include "engine/edits.h"
#include "engine/estimate_core.h"
#include "engine/planner.h"
#include "report/findings.h"
#include "systems/webui/generation_estimate.h"

namespace oomlint {

namespace {

using Change = Lever<GenerationSetup>;

std::string jsonNumber(long n) { return std::to_string(n); }

class Planner {
 public:
  Planner(const Workflow& w, const WorkflowSetup& s, const GpuTarget& gpu, const Knowledge& k, bool editable)
      : w_(w), s_(s), gpu_(gpu), k_(k), editable_(editable) {}

  std::vector<PlanStep> plan() {
    candidates();
    std::vector<PlanStep> steps;
    const GenerationEstimate start = estimate(s_.generation);
    if (start.estimate.verdict == Verdict::Fits) return steps;
    GenerationSetup cumulative = s_.generation;
    double peak = start.estimate.peak().peakBytes;
    std::vector<Change*> remaining;
    for (auto& change : changes_) remaining.push_back(&change);
    // Each round takes the first change, in the fix order, that lowers the peak now (a decode lever can
    // matter only once the weights are smaller).
    for (bool progress = true; progress && !remaining.empty();) {
      progress = false;
      for (auto it = remaining.begin(); it != remaining.end(); ++it) {
        GenerationSetup next = cumulative;
        (*it)->apply(next);
        const GenerationEstimate e = estimate(next);
        if (peak - e.estimate.peak().peakBytes < kMinPlanSaving) continue;
        steps.push_back(planStep(**it, peak, e.estimate));
        kept_.push_back(*it);
        remaining.erase(it);
        cumulative = next;
        peak = e.estimate.peak().peakBytes;
        progress = e.estimate.verdict != Verdict::Fits;
        break;
      }
    }
    markNeededSteps(steps, [&](const std::vector<std::size_t>& pick) {
      GenerationSetup g = s_.generation;
      for (std::size_t i : pick) kept_[i]->apply(g);
      return estimate(g).estimate.verdict == Verdict::Fits;
    });
    return steps;
  }

 private:
  GenerationEstimate estimate(const GenerationSetup& g) const { return estimateGeneration(g, *k_.webui, k_.memory, gpu_); }

  // A change of one workflow value, its edit placed now.
  Change valueChange(const NodeValue& v, std::string toJson, std::string why, std::function<void(GenerationSetup&)> apply) const {
    Change c(v.path, v.value->range.end.offset > v.value->range.start.offset ? sourceText(*v.value) : "null", toJson, std::move(why), std::move(apply));
    place(c.fix, {{v.path, std::move(toJson)}});
    return c;
  }

  std::string sourceText(const Node& n) const {
    const std::string& text = w_.doc->source().text();
    return text.substr(n.range.start.offset, n.range.end.offset - n.range.start.offset);
  }

  void place(Fix& fix, const std::vector<std::pair<KeyPath, std::string>>& values) const {
    fix.edits.clear();
    if (!editable_) {
      fix.unplaced = "the workflow is inside a PNG: change it in ComfyUI, or check the exported JSON and fix that";
      return;
    }
    for (const auto& [path, json] : values) {
      if (auto edit = editFor(*w_.doc, path, json, &fix.unplaced)) fix.edits.push_back(std::move(*edit));
    }
  }

  // A launch flag to add, or in place of `replaces` (empty `flag`: that one dropped). Advice: a workflow has no place for it.
  Change launchFlag(std::string flag, std::string why, std::function<void(GenerationSetup&)> apply, const std::string& replaces = "") const {
    Change c(KeyPath::of({"args"}), jsonString(replaces), jsonString(flag), std::move(why), std::move(apply));
    c.fix.unplaced = "a launch flag: start ComfyUI " + (flag.empty() ? "without " + replaces : "with " + flag + (replaces.empty() ? "" : " in place of " + replaces)) +
                     " (a workflow has no place for it)";
    return c;
  }

  void candidates() {
    blockMoverLever();
    weightLevers();
    if (s_.packPlacesModel) {
      // A wrapper places its model itself: ComfyUI's launch flags change nothing of it; its own settings do.
      packLevers();
      sizeLevers();
      return;
    }
    sizeLevers();
    // Dynamic VRAM already streams what does not fit, a layer at a time: --lowvram does nothing there and the
    // others would switch it off for the older manager.
    if (s_.generation.loadMode == LoadMode::Dynamic) return;
    // --highvram and --gpu-only keep every model on the GPU; they are ComfyUI's VRAM mode as --lowvram and --novram are,
    // one of a mutually exclusive group (cli_args.py vram_group): dropped first, replaced by the others.
    const LoadMode mode = s_.generation.loadMode;
    const std::string keeping = mode == LoadMode::High ? "--highvram" : mode == LoadMode::GpuOnly ? "--gpu-only" : "";
    if (!keeping.empty()) {
      changes_.push_back(launchFlag("", "ComfyUI's default manager sends a model it is done with to system RAM and loads what fits",
                                    [](GenerationSetup& g) { g.loadMode = LoadMode::Normal; }, keeping));
    }
    changes_.push_back(launchFlag("--lowvram", "ComfyUI loads the model in parts and runs the text encoders on the CPU (slower)",
                                  [](GenerationSetup& g) {
                                    g.loadMode = LoadMode::Low;
                                    g.textEncoderOnCpu = true;
                                  },
                                  keeping));
    changes_.push_back(launchFlag("--novram", "the weights stay in system RAM and stream in block by block (much slower)",
                                  [](GenerationSetup& g) { g.loadMode = LoadMode::NoVram; }, keeping));
    changes_.push_back(launchFlag("--reserve-vram 2", "ComfyUI keeps 2 GB free for the desktop and other programs, loading less of the model",
                                  [](GenerationSetup& g) { g.reserveBytes = 2.0 * (1 << 30); }));
  }

  // A model patch that moves every block onto the GPU (TaylorSeer's block swap with nothing swapped) defeats every
  // other lever of the weights: bypassed (UI mode 4), its model passes through and ComfyUI loads what fits.
  void blockMoverLever() {
    const WorkflowNode* n = s_.blockMover;
    if (n == nullptr) return;
    std::string why = n->type + " moves every block onto the GPU at its first step; bypassed, ComfyUI loads what fits";
    if (const std::string& input = n->known->wholeModelUnlessLinked; !input.empty()) why += " (or link a block-swap node to its " + input + ")";
    const auto apply = [maps = s_.blockMoverCachedMaps](GenerationSetup& x) {
      x.wholeModelSampler.clear();
      x.cachedTokenMaps -= maps;  // nor does its cache
    };
    if (w_.format != WorkflowFormat::Ui) {
      Change c(n->path, "\"" + n->type + "\"", "\"bypassed\"", why, apply);
      c.fix.unplaced = "an API workflow has no bypass: bypass the node in ComfyUI, or take it out and link its model input to what it feeds";
      changes_.push_back(std::move(c));
      return;
    }
    const KeyPath mode = n->path.key("mode");
    const Node* now = valueAtPath(w_.doc->root(), mode);
    Change c(mode, now != nullptr ? sourceText(*now) : "null", "4", why, apply);
    place(c.fix, {{mode, "4"}});
    changes_.push_back(std::move(c));
  }

  void weightLevers() {
    const GenerationSetup& g = s_.generation;
    // An fp8 file ComfyUI may load in 16 bits stays fp8 when the loader says so (the planner keeps what saves).
    if (s_.weightDtype != nullptr && (!g.unetFp8 || g.unetDtypeByTool) && g.unetBytesPerParam == 0) {
      changes_.push_back(valueChange(*s_.weightDtype, jsonString("fp8_e4m3fn"),
                                     s_.model->type + " stores the weights in fp8: half the memory, a small loss in quality",
                                     [](GenerationSetup& x) { x.storeUnetInFp8(); }));
    } else if (s_.weightDtype == nullptr && s_.gguf == nullptr && (!g.unetFp8 || g.unetDtypeByTool) && !s_.packPlacesModel) {
      changes_.push_back(launchFlag("--fp8_e4m3fn-unet", "ComfyUI stores the model's weights in fp8: half the memory",
                                    [](GenerationSetup& x) { x.storeUnetInFp8(); }));
    }
    if (s_.gguf != nullptr) ggufLever();
  }

  // The next smaller GGUF file: the quantization in the loader's file name replaced, as the user would
  // download it.
  void ggufLever() {
    const std::string& name = s_.modelName->value->resolved()->text;
    for (const auto& [from, to] : k_.comfyui->ggufStepDown) {
      if (from != s_.gguf->name) continue;
      const std::string lower = lowercase(name);
      const std::size_t at = lower.rfind(from);
      const GgufQuant* smaller = k_.comfyui->ggufQuant(to);
      if (at == std::string::npos || smaller == nullptr) return;
      // The K-quants' size suffix (_S, _M) goes with the old name.
      std::size_t end = at + from.size();
      if (end + 1 < name.size() && name[end] == '_' && std::string_view("SMLsml").find(name[end + 1]) != std::string_view::npos) end += 2;
      const std::string renamed = name.substr(0, at) + to + name.substr(end);
      const double bytes = smaller->bits / 8;
      changes_.push_back(valueChange(*s_.modelName, jsonString(renamed),
                                     "the " + to + " GGUF of the same model (" + fixedText(smaller->bits, 2) +
                                         " bits per weight): download it beside the current one",
                                     [bytes](GenerationSetup& x) { x.unetBytesPerParam = bytes; }));
      return;
    }
  }

  // A wrapper's own levers (rules/comfyui.yaml's pack fields): its loader off the GPU until the sampler, its
  // decode tiled, and every block its block swap can keep in RAM.
  void packLevers() {
    const GenerationSetup& g = s_.generation;
    const PackLoader& loader = s_.model->known->loader;
    if (g.modelOnGpuFromLoad && !loader.loadDeviceWidget.empty()) {
      if (const NodeValue* device = s_.model->value(loader.loadDeviceWidget)) {
        changes_.push_back(valueChange(*device, jsonString("offload_device"), "the model waits in RAM until the sampler needs it",
                                       [](GenerationSetup& x) { x.modelOnGpuFromLoad = false; }));
      }
    }
    if (const NodeValue* attention = s_.model->value("attention_mode"); attention != nullptr && g.denseAttentionMask) {
      changes_.push_back(valueChange(*attention, jsonString("sageattn_varlen"),
                                     "SageAttention over packed sequences needs no tokens² mask (the sageattention package must be installed)",
                                     [](GenerationSetup& x) { x.denseAttentionMask = false; }));
    }
    if (s_.decode != nullptr && g.vaeDecode != VaeDecode::Tiled && !s_.decode->known->vae.tilingWidget.empty()) {
      const PackVae& t = s_.decode->known->vae;
      if (const NodeValue* tiling = s_.decode->value(t.tilingWidget)) {
        const auto written = s_.decode->number(t.tileWidget);
        const int tile = written && *written >= 64 && *written <= 8192 ? static_cast<int>(*written) : g.decodeTilePixels;
        changes_.push_back(valueChange(*tiling, "true", s_.decode->type + " decodes in tiles (slower, seams are blended)",
                                       [&t, tile](GenerationSetup& x) {
                                         x.vaeDecode = VaeDecode::Tiled;
                                         x.decodeTilePixels = tile;  // its own tile widget's, as the setup reads a tiled one
                                         x.decodeOutputBytesPerPixel = t.tiledOutputBytesPerPixel;
                                       }));
      }
    }
    if (s_.blockSwap != nullptr && s_.swapMost > 0) {
      const NodeValue* blocks = s_.blockSwap->value(s_.blockSwap->known->blockSwap.widgets.front());
      if (blocks != nullptr && blocks->value->isNumber() && blocks->value->number() < s_.swapMost) {
        const double swapped = s_.swapAllParams;
        changes_.push_back(valueChange(*blocks, jsonNumber(s_.swapMost),
                                       "all " + std::to_string(s_.swapMost) + " blocks wait in RAM and visit the GPU one at a time (slower)",
                                       [swapped](GenerationSetup& x) { x.swappedParams = std::max(x.swappedParams, swapped); }));
      }
    }
  }

  void sizeLevers() {
    const WorkflowNode* l = s_.latent;
    if (l == nullptr) return;
    const GenerationSetup& g = s_.generation;
    if (const NodeValue* batch = l->value("batch_size"); batch && g.batchSize > 1) {
      changes_.push_back(valueChange(*batch, "1", "one image per run (queue the rest)", [](GenerationSetup& x) { x.batchSize = 1; }));
    }
    if (const NodeValue* length = l->value("length") ? l->value("length") : l->value("num_frames"); length && g.frames > 8) {
      const int temporal = std::max(1, s_.arch.vae.temporal);
      const int fewer = std::max(temporal + 1, ((g.frames - 1) / 2 / temporal) * temporal + 1);
      changes_.push_back(valueChange(*length, jsonNumber(fewer),
                                     std::to_string(fewer) + " frames instead of " + std::to_string(g.frames) + ": a shorter clip",
                                     [fewer](GenerationSetup& x) { x.frames = fewer; }));
    }
    // A reference image scaled to more than a megapixel (FLUX.2's edit templates take 2): its tokens join every forward.
    for (const NodeValue* megapixels : s_.referenceMegapixels) {
      const double mp = megapixels->value->isNumber() ? megapixels->value->number() : 0;
      if (mp <= 1.0) continue;
      changes_.push_back(valueChange(*megapixels, "1.0", "the reference image at 1 megapixel instead of " + fixedText(mp, 1) + " (fewer tokens each step)",
                                     [mp](GenerationSetup& x) { x.referencePixels -= (mp - 1.0) * 1024 * 1024; }));
    }
    const NodeValue* width = l->value("width");
    const NodeValue* height = l->value("height");
    const long side = std::max(g.width, g.height);
    const int step = k_.advice.stepBelow(static_cast<int>(side));
    if (width && height && step > 0) {
      const double ratio = static_cast<double>(step) / static_cast<double>(side);
      const long w = std::max(64L, std::lround(g.width * ratio / 16) * 16), h = std::max(64L, std::lround(g.height * ratio / 16) * 16);
      Change c(width->path, sourceText(*width->value), jsonNumber(w),
               std::to_string(w) + "×" + std::to_string(h) + " instead of " + std::to_string(g.width) + "×" + std::to_string(g.height) +
                   ": a smaller image (upscale it afterwards)",
               [w, h](GenerationSetup& x) {
                 x.width = w;
                 x.height = h;
               });
      place(c.fix, {{width->path, jsonNumber(w)}, {height->path, jsonNumber(h)}});
      changes_.push_back(std::move(c));
    }
  }

  const Workflow& w_;
  const WorkflowSetup& s_;
  const GpuTarget& gpu_;
  const Knowledge& k_;
  bool editable_;
  std::vector<Change> changes_;
  std::vector<Change*> kept_;
};

}  // namespace

std::optional<Fix> fp8WeightsFix(const Workflow& w, const WorkflowSetup& s, bool fileIn16Bits, bool editable) {
  if (s.weightDtype == nullptr || (s.generation.unetFp8 && !fileIn16Bits) || s.generation.unetBytesPerParam > 0) return std::nullopt;
  const Node& value = *s.weightDtype->value;
  const std::string& text = w.doc->source().text();
  Fix fix(s.weightDtype->path, text.substr(value.range.start.offset, value.range.end.offset - value.range.start.offset),
          jsonString("fp8_e4m3fn"));
  if (!editable) {
    fix.unplaced = "the workflow is inside a PNG: change it in ComfyUI";
  } else if (auto edit = editFor(*w.doc, fix.path, fix.toJson, &fix.unplaced)) {
    fix.edits.push_back(std::move(*edit));
  }
  return fix;
}

std::optional<Fix> tiledDecodeFix(const Workflow& w, const WorkflowNode& decode, bool editable) {
  if (decode.type != "VAEDecode") return std::nullopt;
  const bool api = w.format != WorkflowFormat::Ui;
  const KeyPath typePath = decode.path.key(api ? "class_type" : "type");
  Fix fix(typePath, jsonString(decode.type), jsonString("VAEDecodeTiled"));
  if (!editable) {
    fix.unplaced = "the workflow is inside a PNG: change it in ComfyUI";
    return fix;
  }
  std::vector<std::pair<KeyPath, std::string>> values{{typePath, jsonString("VAEDecodeTiled")}};
  if (api) {
    // VAEDecodeTiled's required inputs, at its defaults (nodes.py).
    for (const auto& [input, value] : {std::pair{"tile_size", 512}, {"overlap", 64}, {"temporal_size", 64}, {"temporal_overlap", 8}}) {
      values.emplace_back(decode.path.key("inputs").key(input), std::to_string(value));
    }
  } else {
    values.emplace_back(decode.path.key("widgets_values"), "[512, 64, 64, 8]");
  }
  for (const auto& [path, json] : values) {
    if (auto edit = editFor(*w.doc, path, json, &fix.unplaced)) fix.edits.push_back(std::move(*edit));
  }
  return fix;
}

std::vector<PlanStep> workflowPlan(const Workflow& workflow, const WorkflowSetup& setup, const GpuTarget& gpu, const Knowledge& knowledge,
                                   bool editable) {
  return Planner(workflow, setup, gpu, knowledge, editable).plan();
}

}  // namespace oomlint
