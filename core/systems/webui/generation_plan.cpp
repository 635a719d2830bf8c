#include "systems/webui/generation_plan.h"

#include <algorithm>
#include <functional>

#include "engine/edits.h"
#include "engine/planner.h"
#include "report/findings.h"
#include "base/text/suggest.h"
#include "base/text/decimal_text.h"

namespace oomlint {

namespace {

using Change = Lever<GenerationSetup>;

class Planner {
 public:
  Planner(const WebUiInput& input, const GenerationSetup& setup, const GpuTarget& gpu, const WebUiKnowledge& webui,
          const MemoryModel& memory)
      : in_(input), s_(setup), gpu_(gpu), w_(webui), m_(memory) {}

  std::vector<PlanStep> plan() {
    candidates();
    std::vector<PlanStep> steps;
    GenerationSetup cumulative = s_;
    const GenerationEstimate start = estimate(s_);
    if (start.estimate.verdict == Verdict::Fits) return steps;  // nothing to roll back
    double peak = start.estimate.peak().peakBytes;
    Verdict verdict = start.estimate.verdict;
    // Each round takes the first change, in the fix order, that lowers the peak now: a lever that
    // saves nothing at today's peak phase (xFormers while the decode is the peak) can matter later.
    std::vector<Change*> remaining;
    for (auto& change : changes_) remaining.push_back(&change);
    bool progress = true;
    while (progress && !remaining.empty()) {
      progress = false;
      for (auto it = remaining.begin(); it != remaining.end(); ++it) {
        GenerationSetup next = cumulative;
        (*it)->apply(next);
        const GenerationEstimate e = estimate(next);
        const double saves = peak - e.estimate.peak().peakBytes;
        // A change that ends an out-of-memory verdict counts even when the peak hardly moves (split
        // attention past 64 slices fails before it allocates).
        const bool verdictBetter = static_cast<int>(e.estimate.verdict) < static_cast<int>(verdict);
        if (saves < kMinPlanSaving && !verdictBetter) continue;
        steps.push_back(planStep(**it, peak, e.estimate));
        kept_.push_back(*it);
        remaining.erase(it);
        cumulative = next;
        peak = e.estimate.peak().peakBytes;
        verdict = e.estimate.verdict;
        progress = e.estimate.verdict != Verdict::Fits;
        break;
      }
    }
    markNeededSteps(steps, [&](const std::vector<std::size_t>& pick) {
      GenerationSetup g = s_;
      for (std::size_t i : pick) kept_[i]->apply(g);
      return estimate(g).estimate.verdict == Verdict::Fits;
    });
    return steps;
  }

 private:
  GenerationEstimate estimate(const GenerationSetup& g) const { return estimateGeneration(g, w_, m_, gpu_); }

  // The catalog entry of written flag i (the setup read every written flag: it is estimable); null
  // for an unknown flag.
  const WebUiFlag* known(std::size_t i) const { return s_.flags[i].known; }

  // A setting's path: under `generation` in a profile, at the top otherwise.
  KeyPath path(const KeyPath& setting) const { return in_.generation ? KeyPath::of({"generation"}).then(setting) : setting; }

  // One argument of the launch line as written (a flag with the value it takes), or a new one.
  struct Token {
    std::string text;
    int original = -1;  // index into in_.flags; -1 for an added flag
  };

  // The flag's own text in the source: with its argument when it takes one (a following word that it
  // does not take stays where it is).
  std::string_view flagText(std::size_t i) const {
    const LaunchFlag& f = in_.flags[i];
    const std::string_view whole = std::string_view(in_.source->text()).substr(f.begin, f.end - f.begin);
    const bool withValue = f.value.empty() || (known(i) && known(i)->takesValue) || whole.find('=') != std::string_view::npos;
    return withValue ? whole : whole.substr(0, std::min(whole.size(), f.name.size()));
  }

  // `add` in place of the first flag named in `replace` (the others removed), or appended; a misspelling
  // of `add` is replaced rather than kept beside it. An empty `add` only removes.
  void flagChange(std::string add, std::vector<std::string> replace, std::string why,
                  std::function<void(GenerationSetup&)> apply) {
    const bool exact = in_.hasLaunchLine && !(in_.argsNode && in_.argsNode->isSequence()) && !in_.flagInsertNeedsQuoteCheck;
    std::vector<Token> before, after;
    for (std::size_t i = 0; i < in_.flags.size(); ++i) {
      const LaunchFlag& f = in_.flags[i];
      before.push_back({exact ? std::string(flagText(i)) : f.value.empty() ? f.name : f.name + " " + f.value, static_cast<int>(i)});
    }
    auto replaced = [&](std::size_t i) {
      const std::string& name = in_.flags[i].name;
      return std::find(replace.begin(), replace.end(), name) != replace.end() ||
             (!add.empty() && known(i) == nullptr && closestMatch(name, std::array{std::string_view(add)}));
    };
    bool placed = add.empty();
    for (const Token& t : before) {
      if (!replaced(static_cast<std::size_t>(t.original))) {
        after.push_back(t);
      } else if (!placed) {
        after.push_back({add, -1});
        placed = true;
      }
    }
    if (!placed) after.push_back({add, -1});
    Change c{path(KeyPath::of({"args"})), jsonString(joined(before)), jsonString(joined(after)), std::move(why), std::move(apply)};
    if (exact) {
      c.fix.edits.push_back(argsEdit(before, after));
    } else if (in_.profile) {
      placeFix(*in_.profile, c.fix);
    }
    changes_.push_back(std::move(c));
  }

  static std::string joined(const std::vector<Token>& tokens) {
    std::string out;
    for (const auto& t : tokens) out += (out.empty() ? "" : " ") + t.text;
    return out;
  }

  // The smallest edit of the launch line that turns `before` into `after`: the tokens between the common
  // prefix and suffix are rewritten; everything else (quotes, other words, line ends) stays.
  Edit argsEdit(const std::vector<Token>& before, const std::vector<Token>& after) const {
    const SourceText& src = *in_.source;
    auto same = [](const Token& a, const Token& b) { return a.original >= 0 && a.original == b.original; };
    std::size_t k = 0;
    while (k < before.size() && k < after.size() && same(before[k], after[k])) ++k;
    std::size_t m = 0;
    while (m < before.size() - k && m < after.size() - k && same(before[before.size() - 1 - m], after[after.size() - 1 - m])) ++m;
    const std::vector<Token> middle(after.begin() + static_cast<long>(k), after.end() - static_cast<long>(m));
    const std::string text = joined(middle);
    auto flagAt = [&](std::size_t i) -> const LaunchFlag& { return in_.flags[static_cast<std::size_t>(before[i].original)]; };
    auto endOf = [&](std::size_t i) { return flagAt(i).begin + flagText(static_cast<std::size_t>(before[i].original)).size(); };
    if (k + m < before.size()) {  // some written flags change
      std::size_t begin = flagAt(k).begin, end = endOf(before.size() - m - 1);
      if (text.empty()) {  // a removal takes one neighbouring space with it
        if (k > 0) begin = endOf(k - 1);
        else if (m > 0) end = flagAt(before.size() - m).begin;
      }
      return {src.rangeOf(begin, end), text};
    }
    if (k < before.size()) return {src.rangeOf(flagAt(k).begin, flagAt(k).begin), text + " "};  // before a kept flag
    const std::size_t at = before.empty() ? in_.flagInsertOffset : endOf(before.size() - 1);
    const char previous = at > 0 ? src.text()[at - 1] : '\n';
    const bool space = !(previous == '=' || previous == '"' || previous == '\'' || previous == '\n' || previous == ' ');
    return {src.rangeOf(at, at), (space ? " " : "") + text};
  }

  // A setting of the generation profile (it has no launch-flag spelling).
  void settingChange(const KeyPath& setting, std::string from, std::string to, std::string why,
                     std::function<void(GenerationSetup&)> apply) {
    Change c{path(setting), std::move(from), std::move(to), std::move(why), std::move(apply)};
    if (in_.profile) placeFix(*in_.profile, c.fix);
    changes_.push_back(std::move(c));
  }

  // The written flags whose effect is one of `effects`.
  std::vector<std::string> flagsWith(std::initializer_list<FlagEffect> effects) const {
    std::vector<std::string> names;
    for (const ReadFlag& f : s_.flags) {
      if (f.known != nullptr && std::find(effects.begin(), effects.end(), f.known->effect) != effects.end()) {
        names.push_back(f.written->name);
      }
    }
    return names;
  }

  void candidates() {
    const bool sdxl = s_.family->id == "sdxl";
    if (s_.tool == WebUiTool::A1111) {
      const AttentionBackend* b = w_.backend(s_.attention);
      if (b && (b->scoreFactor > 0 || !b->patchesVae)) {
        flagChange("--xformers", flagsWith({FlagEffect::Attention}),
                   "xFormers never builds the attention score matrix, in the UNet or the VAE (A1111 wiki: the fastest and "
                   "lowest-memory option); --opt-sdp-attention where xformers is not installed",
                   [](GenerationSetup& g) { g.attention = "xformers"; });
      }
      if (s_.fp32Weights) {
        flagChange("--upcast-sampling", flagsWith({FlagEffect::NoHalf, FlagEffect::PrecisionFull, FlagEffect::AllFp32}),
                   "fp16 weights with upcast sampling math: the same fix for black images at half the weight memory",
                   [](GenerationSetup& g) { g.fp32Weights = false; });
      }
      if (s_.fp32Vae && s_.family->vaeFp16Overflows && !s_.vaeFp16Fix) {
        settingChange(KeyPath::of({"vae", "fp16_fix"}), "false", "true",
                      "use the fp16-fix SDXL VAE (madebyollin/sdxl-vae-fp16-fix) and drop --no-half-vae: it decodes in fp16 "
                      "without NaNs, half the decode memory",
                      [](GenerationSetup& g) {
                        g.vaeFp16Fix = true;
                        g.fp32Vae = false;
                      });
      }
      if (s_.offload == Offload::Normal) {
        flagChange(sdxl ? "--medvram-sdxl" : "--medvram", {},
                   "keep only one of text encoder, UNet and VAE on the GPU at a time; speed: a little slower (" + w_.medvramSpeed + ")",
                   [](GenerationSetup& g) { g.offload = Offload::Medvram; });
      }
      if (s_.batchCondUncond && s_.arch->denoiser.cfgInSampling) {
        settingChange(KeyPath::of({"batch_cond_uncond"}), "true", "false",
                      "Settings › Optimizations › Batch cond/uncond off: the conditional and unconditional passes run one "
                      "after the other (A1111 1.6 turned batching on by default)",
                      [](GenerationSetup& g) { g.batchCondUncond = false; });
      }
    }
    if (s_.vaeDecode == VaeDecode::Full) {
      settingChange(KeyPath::of({"vae", "decode"}), "\"full\"", "\"tiled\"",
                    std::string("decode in tiles") +
                        (s_.tool == WebUiTool::A1111 ? " (the Tiled VAE extension, or TAESD for previews)"
                                                     : " (the VAE Decode (Tiled) node / Never OOM › Enabled for VAE)") +
                        ": \"saves your VRAM at nearly no cost\"",
                    [](GenerationSetup& g) { g.vaeDecode = VaeDecode::Tiled; });
    }
    if (s_.hiresScale > 1.5) {
      settingChange(KeyPath::of({"hires", "scale"}), generalText(s_.hiresScale), "1.5",
                    "a smaller hires upscale: the second pass and its decode grow with the upscaled area",
                    [](GenerationSetup& g) { g.hiresScale = 1.5; });
    }
    if (s_.batchSize > 1) {
      settingChange(KeyPath::of({"batch_size"}), std::to_string(s_.batchSize), "1",
                    "one image per batch (raise batch count instead: the same images, one at a time)",
                    [](GenerationSetup& g) { g.batchSize = 1; });
    }
    if (s_.tool == WebUiTool::A1111) {
      for (std::size_t i = 0; i < s_.controlnets.size(); ++i) {
        if (s_.controlnets[i].lowVram) continue;
        settingChange(KeyPath::of({"controlnet"}).item(i).key("low_vram"), "false", "true",
                      "ControlNet Low VRAM (any unit turns it on for all): the ControlNet visits the GPU only for its "
                      "forward; with --lowvram it alternates with the UNet blocks",
                      [](GenerationSetup& g) {
                        for (auto& u : g.controlnets) u.lowVram = true;
                      });
        break;
      }
      if (s_.offload != Offload::Lowvram) {
        flagChange("--lowvram", flagsWith({FlagEffect::Medvram, FlagEffect::MedvramSdxl}), "split the UNet into blocks, one on the GPU at a time; speed: devastating for speed: every UNet block is copied to the GPU at "
                   "every step (" + w_.lowvramSpeed + ")",
                   [](GenerationSetup& g) { g.offload = Offload::Lowvram; });
      }
      if (!s_.controlnets.empty() && !s_.controlnetOnCpu) {
        flagChange("--use-cpu controlnet", {},
                   "run the ControlNet models and their preprocessors on the CPU: they leave the GPU entirely, at a "
                   "large cost in speed (every step's ControlNet forward on the CPU)",
                   [](GenerationSetup& g) { g.controlnetOnCpu = true; });
      }
    } else {
      // As A1111's --upcast-sampling for its fp32 flags: the precision flag goes before any quantization.
      if (s_.fp32Weights) {
        flagChange("", flagsWith({FlagEffect::AllFp32}),
                   "drop the fp32 flag: weights and work in 16 bits where the card runs them, half the memory (fp32 is a fix for "
                   "black images on some cards)",
                   [](GenerationSetup& g) { g.fp32Weights = false; });
      }
      if (!s_.unetFp8) {
        // The flag chooses the dtype: the card's rules no longer decide it.
        flagChange(s_.tool == WebUiTool::Forge ? "--unet-in-fp8-e4m3fn" : "--fp8_e4m3fn-unet", {},
                   "store the UNet/transformer weights in fp8: half their memory, a small quality cost",
                   [](GenerationSetup& g) { g.storeUnetInFp8(); });
      }
      if (s_.loadMode == LoadMode::High || s_.loadMode == LoadMode::GpuOnly) {
        flagChange("", flagsWith({FlagEffect::ComfyHighVram, FlagEffect::ComfyGpuOnly}), "let the memory manager offload: weights that do not fit stream from system RAM (slower, no OOM)",
                   [](GenerationSetup& g) { g.loadMode = LoadMode::Normal; });
      }
      // Under dynamic VRAM (forced on) the weights already stream a layer at a time and the mode flags change nothing.
      if (s_.loadMode != LoadMode::NoVram && s_.loadMode != LoadMode::Dynamic) {
        flagChange(s_.tool == WebUiTool::Forge ? "--always-no-vram" : "--novram", flagsWith({FlagEffect::ForgeLowVram, FlagEffect::Lowvram}),
                   "keep the weights in system RAM and stream them (much slower)",
                   [](GenerationSetup& g) { g.loadMode = LoadMode::NoVram; });
      }
    }
  }

  const WebUiInput& in_;
  const GenerationSetup& s_;
  const GpuTarget& gpu_;
  const WebUiKnowledge& w_;
  const MemoryModel& m_;
  std::vector<Change> changes_;
  std::vector<Change*> kept_;
};

}  // namespace

std::vector<PlanStep> generationPlan(const WebUiInput& input, const GenerationSetup& setup, const GpuTarget& gpu,
                                     const WebUiKnowledge& webui, const MemoryModel& memory) {
  return Planner(input, setup, gpu, webui, memory).plan();
}

}  // namespace oomlint
