#include "systems/sdscripts/plan.h"

#include <functional>

#include "base/text/ascii.h"
#include "engine/planner.h"
#include "systems/sdscripts/estimate.h"

namespace oomlint {

namespace {

struct SdLever {
  Lever<SdSetup> lever;
  SdChange change;
};

std::string jsonInt(int v) { return std::to_string(v); }
std::string jsonStr(const std::string& v) { return "\"" + v + "\""; }

KeyPath argPath(const std::string& name) { return KeyPath::of({name}); }

SdLever flagOn(const std::string& name, std::string why, std::function<void(SdSetup&)> apply) {
  return {Lever<SdSetup>(argPath(name), "false", "true", std::move(why), std::move(apply)), {name, std::nullopt, ""}};
}

// The block counts tried for blocks_to_swap, up to the script's limit (FLUX 35, HunyuanImage 37; others blocks − 2).
std::vector<int> swapSteps(const SdSetup& s) {
  const int max = s.maxBlocksToSwap();
  std::vector<int> out;
  for (int n : {8, 12, 16, 18, 22, 26, 28, 32, 35}) {
    if (n > s.blocksToSwap.value && n <= max) out.push_back(n);
  }
  return out;
}

// The levers in the guide's order, each made against the setup as the earlier ones left it.
std::vector<std::function<std::optional<SdLever>(const SdSetup&)>> leversFor(const Advice& advice) {
  using Make = std::function<std::optional<SdLever>(const SdSetup&)>;
  std::vector<Make> out;
  out.push_back([](const SdSetup& s) -> std::optional<SdLever> {
    if (s.gradientCheckpointing.value) return std::nullopt;
    return flagOn("gradient_checkpointing", "gradient checkpointing keeps one block's activations instead of all",
                  [](SdSetup& t) { t.gradientCheckpointing.value = true; });
  });
  // A fused attention kernel is, like checkpointing, the same training in less memory: it comes before anything the
  // guide's order gives up.
  out.push_back([](const SdSetup& s) -> std::optional<SdLever> {
    if (!s.unetPlainAttention || s.arch == nullptr || s.arch->denoiser.selfAttention.empty()) return std::nullopt;
    return flagOn("sdpa", "PyTorch's fused attention (--sdpa): the U-Net's attention no longer keeps its score matrices",
                  [](SdSetup& t) { t.unetPlainAttention = false; });
  });
  out.push_back([](const SdSetup& s) -> std::optional<SdLever> {
    if (s.trainBatch.value <= 1) return std::nullopt;
    const std::string from = jsonInt(s.trainBatch.value);
    if (s.datasetBatch) {
      return SdLever{Lever<SdSetup>(s.datasetBatch->path, from, "1", "batch 1 (gradient_accumulation_steps keeps the effective batch)",
                                    [](SdSetup& t) { t.trainBatch.value = 1; }),
                     {"", s.datasetBatch, "1"}};
    }
    return SdLever{Lever<SdSetup>(argPath("train_batch_size"), from, "1", "batch 1 (gradient_accumulation_steps keeps the effective batch)",
                                  [](SdSetup& t) { t.trainBatch.value = 1; }),
                   {"train_batch_size", std::nullopt, "1"}};
  });
  out.push_back([&advice](const SdSetup& s) -> std::optional<SdLever> {
    const int lower = advice.stepBelow(s.resolution.value);
    if (lower <= 0 || s.resolutionAssumed) return std::nullopt;
    const std::string why = "a smaller resolution (" + std::to_string(lower) + " px; buckets follow it)";
    const auto apply = [lower](SdSetup& t) { t.resolution.value = lower; };
    if (s.datasetResolution) {
      const Node* n = s.datasetResolution->node->resolved();
      const std::string to = n->isSequence() ? "[" + jsonInt(lower) + ", " + jsonInt(lower) + "]"
                             : n->type == ScalarType::String ? jsonStr(jsonInt(lower) + "," + jsonInt(lower))
                                                             : jsonInt(lower);
      return SdLever{Lever<SdSetup>(s.datasetResolution->path, jsonInt(s.resolution.value), to, why, apply), {"", s.datasetResolution, ""}};
    }
    const std::string cli = jsonInt(lower) + "," + jsonInt(lower);
    return SdLever{Lever<SdSetup>(argPath("resolution"), jsonStr(s.resolution.from ? s.resolution.from->text() : ""), jsonStr(cli), why, apply),
                   {"resolution", std::nullopt, cli}};
  });
  out.push_back([](const SdSetup& s) -> std::optional<SdLever> {
    if (s.cacheLatents.value) return std::nullopt;
    return flagOn("cache_latents", "cache the latents: the VAE leaves the GPU before training",
                  [](SdSetup& t) { t.cacheLatents.value = true; });
  });
  out.push_back([](const SdSetup& s) -> std::optional<SdLever> {
    if (s.cacheTextEncoderOutputs.value) return std::nullopt;
    return flagOn("cache_text_encoder_outputs", "cache the text encoders' outputs: they leave the GPU before training",
                  [](SdSetup& t) { t.cacheTextEncoderOutputs.value = true; });
  });
  out.push_back([](const SdSetup& s) -> std::optional<SdLever> {
    if (s.ditFp8() || s.arch->denoiser.blocks == 0 || s.finetune()) return std::nullopt;  // fp8 is for the DiT scripts' LoRA
    if (s.scaledFp8()) return flagOn("fp8_scaled", "fp8 DiT weights, scaled per block (fp8_scaled)", [](SdSetup& t) { t.fp8Scaled.value = true; });
    return flagOn("fp8_base", "fp8 base weights (fp8_base)", [](SdSetup& t) { t.fp8Base.value = true; });
  });
  out.push_back([](const SdSetup& s) -> std::optional<SdLever> {
    // HunyuanImage's Qwen2.5-VL (15 GiB in bf16) encodes the captions on the GPU before training.
    if (s.fp8TextEncoder || s.musubi || !s.accepts("fp8_vl")) return std::nullopt;
    return flagOn("fp8_vl", "Qwen2.5-VL in fp8 while it encodes the captions (fp8_vl)", [](SdSetup& t) { t.fp8TextEncoder = true; });
  });
  out.push_back([](const SdSetup& s) -> std::optional<SdLever> {
    if (s.textEncoderCpu.value || s.musubi || !s.accepts("text_encoder_cpu")) return std::nullopt;
    return flagOn("text_encoder_cpu", "the text encoders run on the CPU (slower caching)", [](SdSetup& t) { t.textEncoderCpu.value = true; });
  });
  out.push_back([](const SdSetup& s) -> std::optional<SdLever> {
    if (s.arch->denoiser.blocks == 0 || s.cpuOffloadCheckpointing.value) return std::nullopt;
    const auto steps = swapSteps(s);
    if (steps.empty()) return std::nullopt;
    // One lever per count would list every count; the walk below asks for the fewest that fit.
    const int n = steps.front();
    return SdLever{Lever<SdSetup>(argPath("blocks_to_swap"), jsonInt(s.blocksToSwap.value), jsonInt(n),
                                  "swap " + std::to_string(n) + " blocks to system RAM (slower steps)",
                                  [n](SdSetup& t) { t.blocksToSwap.value = n; }),
                   {"blocks_to_swap", std::nullopt, jsonInt(n)}};
  });
  return out;
}

bool fits(const Estimate& e) { return e.verdict == Verdict::Fits; }

}  // namespace

SdPlan sdRollbackPlan(const SdSetup& setup, const Estimate& before, const MemoryModel& m, const Advice& advice,
                      const GpuTarget& gpu) {
  SdPlan plan;
  if (setup.arch == nullptr || (setup.script && setup.script->caches())) return plan;
  if (fits(before)) return plan;
  SdSetup current = setup;
  double peak = before.peak().peakBytes;
  std::vector<SdLever> taken;
  for (const auto& make : leversFor(advice)) {
    auto lever = make(current);
    if (!lever || (!lever->change.arg.empty() && !setup.accepts(lever->change.arg))) continue;
    SdSetup next = current;
    lever->lever.apply(next);
    Estimate after = estimateSdScripts(next, m, gpu, Detail::Figures);
    // Block swap: the fewest blocks that fit (else the most the script allows).
    if (lever->change.arg == "blocks_to_swap" && !fits(after)) {
      for (int n : swapSteps(current)) {
        next = current;
        next.blocksToSwap.value = n;
        after = estimateSdScripts(next, m, gpu, Detail::Figures);
        lever->lever = Lever<SdSetup>(argPath("blocks_to_swap"), jsonInt(current.blocksToSwap.value), jsonInt(n),
                                      "swap " + std::to_string(n) + " blocks to system RAM (slower steps)",
                                      [n](SdSetup& t) { t.blocksToSwap.value = n; });
        lever->change.cliValue = jsonInt(n);
        if (fits(after)) break;
      }
    }
    if (peak - after.peak().peakBytes < kMinPlanSaving) continue;
    PlanStep step = planStep(lever->lever, peak, after);
    step.rank = static_cast<int>(plan.steps.size()) + 1;
    plan.steps.push_back(step);
    plan.changes.push_back(lever->change);
    taken.push_back(*lever);
    current = next;
    peak = after.peak().peakBytes;
    if (step.fitsAfter) break;
  }
  markNeededSteps(plan.steps, [&](const std::vector<std::size_t>& pick) {
    SdSetup s = setup;
    for (std::size_t k : pick) taken[k].lever.apply(s);
    return fits(estimateSdScripts(s, m, gpu, Detail::Figures));
  });
  return plan;
}

}  // namespace oomlint
