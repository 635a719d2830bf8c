#include "systems/logs/diagnose.h"

#include "engine/rollback_order.h"
#include "systems/aitk/job.h"
#include "base/text/decimal_text.h"

namespace oomlint {

namespace {

// As PyTorch prints sizes: MiB below a GiB.
std::string gib(std::int64_t bytes) {
  if (bytes < (1ll << 30)) return fixedText(static_cast<double>(bytes) / (1024.0 * 1024.0), 2) + " MiB";
  return fixedText(static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0), 2) + " GiB";
}

Range lineRange(int line, const std::string& text) {
  Range r;
  r.start = {std::max(1, line), 1, 0};
  r.end = {std::max(1, line), codePointCount(text) + 1, 0};
  return r;
}

std::string describeKind(OomKind kind) {
  switch (kind) {
    case OomKind::CudaAlloc: return "PyTorch's CUDA allocator could not allocate";
    case OomKind::CudaError: return "a raw `CUDA error: out of memory` (outside the allocator)";
    case OomKind::CublasAlloc: return "cuBLAS could not allocate its workspace (CUBLAS_STATUS_ALLOC_FAILED)";
    case OomKind::HipAlloc: return "the ROCm (HIP) allocator could not allocate";
    case OomKind::MpsAlloc: return "the Apple MPS backend reached its limit";
    case OomKind::ComfyAlloc: return "the cudaMallocAsync allocator refused the allocation";
    case OomKind::HostRam: return "the system ran out of RAM";
    case OomKind::None: break;
  }
  return "out of memory";
}

// The generation UIs' own levers, cheapest first (webui-lowvram.md §8), skipping flags already given.
std::string webUiFirstChange(const LogAnalysis& log) {
  const Phase phase = log.phase;
  const bool decode = phase == Phase::VaeDecode;
  const bool generating = phase == Phase::Inference || phase == Phase::Unknown || phase == Phase::Sample || phase == Phase::Load || decode;
  if (!generating) return {};
  auto given = [&](std::string_view flag) {
    const std::size_t at = log.launchArgs.find(flag);
    return at != std::string::npos &&
           (at + flag.size() == log.launchArgs.size() || log.launchArgs[at + flag.size()] == ' ');
  };
  if (log.tool == "a1111") {
    if (decode) {
      return "it failed decoding with the VAE (AUTOMATIC1111): decode in tiles (the Tiled VAE extension) or with TAESD "
             "(Settings › VAE type for decode), lower the hires upscale; for SDXL use the fp16-fix VAE rather than "
             "--no-half-vae, which doubles the decode";
    }
    std::string steps;
    auto add = [&](std::string_view flag, std::string_view what) {
      if (given(flag)) return;
      steps += (steps.empty() ? "" : ", then ") + std::string(what);
    };
    if (log.kind == OomKind::MpsAlloc) {
      add("--opt-sub-quad-attention", "--opt-sub-quad-attention (xFormers is CUDA-only)");  // A Mac: MPS
    } else if (!given("--opt-sdp-attention")) {
      add("--xformers", "add --xformers (or --opt-sdp-attention)");
    }
    if (!given("--medvram-sdxl")) add("--medvram", "--medvram (--medvram-sdxl for SDXL)");
    steps += std::string(steps.empty() ? "" : ", then ") + "turn off Settings › Optimizations › Batch cond/uncond";
    add("--lowvram", "--lowvram last (much slower)");
    return "it failed generating (AUTOMATIC1111" + (log.launchArgs.empty() ? std::string() : ", launched with " + log.launchArgs) +
           "): " + steps;
  }
  if (log.tool == "forge") {
    return std::string("it failed generating (Forge, which ignores A1111's memory flags): ") +
           (decode ? "turn on Never OOM › Enabled for VAE (always tiled), or --vae-in-cpu"
                   : "lower GPU Weights (MB) in the UI to leave more for computation, or --always-low-vram / "
                     "--always-offload-from-vram; --unet-in-fp8-e4m3fn halves the model's weights");
  }
  if (log.tool == "comfyui") {
    // The memory mode it printed at start says which flags it ran with (launchArgs: the one that sets that mode).
    const std::string ran = log.launchArgs.empty() ? "ComfyUI" : "ComfyUI, run as with " + log.launchArgs;
    if (decode) return "it failed decoding (" + ran + "): use the VAE Decode (Tiled) node, or --cpu-vae";
    std::string flags = "start with --lowvram (then --novram), ";
    if (given("--enable-dynamic-vram")) flags = "its dynamic VRAM already streams the weights (--lowvram does nothing there): lower the size or frames, ";
    else if (given("--highvram")) flags = "drop --highvram, which keeps every model on the GPU, then try --lowvram, ";
    else if (given("--lowvram")) flags = "start with --novram, ";
    else if (given("--novram") || given("--cpu")) flags.clear();
    return "it failed generating (" + ran + "): " + flags +
           "add --reserve-vram if other software uses the GPU, or load an fp8/GGUF model; \"loaded partially\" is expected on "
           "small cards";
  }
  return {};
}

// Each kind of lever in AI Toolkit's settings, as the advice names it.
std::string_view aiToolkitLever(LeverKind kind) {
  switch (kind) {
    case LeverKind::Frames: return "fewer frames (num_frames)";
    case LeverKind::Checkpointing: return "gradient_checkpointing: true";
    case LeverKind::Batch: return "batch_size 1";
    case LeverKind::Bucket: return "drop the largest resolution bucket";
    case LeverKind::Sampling:
      return "lower sample width/height/num_frames, or set train.skip_first_sample / train.disable_sampling";
    case LeverKind::LowMemory:
      return "quantize (model.quantize, quantize_te) and set model.low_vram: true, which quantizes on the CPU";
  }
  return {};
}

// The first `count` changes of the guide's order for a run that failed in `phase` ("a, b, then c").
std::string firstLevers(Phase phase, std::size_t count) {
  const std::vector<LeverKind> order = rollbackOrder(false, phase);
  std::string out;
  for (std::size_t i = 0; i < count && i < order.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == count ? ", then " : ", ") + std::string(aiToolkitLever(order[i]));
  }
  return out;
}

// What keeps weights or data in system RAM, in the words of the UI or trainer that wrote the log.
std::string hostRamLevers(const LogAnalysis& log) {
  if (log.tool == "comfyui") {
    return "start ComfyUI with --cache-none (it keeps node outputs, and the models it unloads, in RAM between runs), load fp8 or "
           "GGUF model files, or add RAM or swap";
  }
  if (log.tool == "a1111") {
    return "start it with --lowram (the checkpoint's weights load straight to VRAM), keep one checkpoint in memory (Settings › "
           "Stable Diffusion: Checkpoints to cache in RAM 0), or add RAM or swap";
  }
  if (log.tool == "forge") return "load one model at a time, fp8 or GGUF model files, or add RAM or a larger page file";
  // The trainers' own (their argument parsers' help): sd-scripts' and musubi-tuner's --max_data_loader_n_workers "lower is
  // less main RAM usage", --persistent_data_loader_workers "may use more memory"; sd-scripts' --cache_latents keeps every
  // latent in RAM, --lowram loads the models to VRAM instead; musubi-tuner caches latents to disk in scripts of their own.
  constexpr std::string_view aiToolkit = "lower model.layer_offloading percents or low_vram parking (they keep weights in RAM)";
  constexpr std::string_view dataLoader =
      "fewer data-loader processes (--max_data_loader_n_workers, 8 by default, and no --persistent_data_loader_workers)";
  constexpr std::string_view moreRam = "add RAM or swap (WSL: its memory limit; Windows: a larger page file)";
  if (log.aiToolkit()) return std::string(aiToolkit) + ", add RAM or swap (WSL: its memory limit), or load one model at a time";
  if (log.trainer == "sd-scripts") {
    return std::string(dataLoader) + ", latents cached to disk rather than RAM (--cache_latents_to_disk), --lowram where the card " +
           "has more memory than the machine (the models load straight to VRAM), or " + std::string(moreRam);
  }
  if (log.trainer == "musubi-tuner") {
    return std::string(dataLoader) + ", fewer --blocks_to_swap if the card allows (swapped blocks wait in RAM), or " + std::string(moreRam);
  }
  // A trainer the log does not name: each one's own levers.
  return "keep less in system RAM (AI Toolkit: " + std::string(aiToolkit) + "; kohya's sd-scripts and musubi-tuner: " +
         std::string(dataLoader) + ", and sd-scripts' latents cached to disk, --cache_latents_to_disk), or " + std::string(moreRam);
}

// A line of the log as a message quotes it: its number and its text, cut.
std::string quoted(const LogEvidence& e) {
  constexpr std::size_t kShown = 90;
  std::string text = e.text.size() > kShown ? e.text.substr(0, kShown) + "…" : e.text;
  return "line " + std::to_string(e.line) + " `" + text + "` (" + e.why + ")";
}

// A suspected OOM: what it rests on, how to confirm it, and what to change if it is one.
void reportSuspicion(const LogAnalysis& log, Findings& findings) {
  const bool hostRam = log.kind == OomKind::HostRam;
  std::string where = log.phase == Phase::Unknown ? "at a stage the log does not show" : "during " + std::string(toString(log.phase));
  if (log.step) where += " at step " + std::to_string(*log.step);
  std::string evidence;
  for (const auto& e : log.evidence) evidence += (evidence.empty() ? "" : "; ") + quoted(e);
  const std::string next =
      hostRam ? "confirm in the system log (`dmesg` or `journalctl -k`: \"Out of memory: Killed process\"; Windows: the "
                "event log), then " + hostRamLevers(log)
              : "run it again and read the error the step prints; if it is an out-of-memory error: " + firstChangeFor(log.phase, log.step, 0);
  findings.report(RuleId::OL608, lineRange(log.oomLine, log.oomText), {},
                  "the run probably ran out of " + std::string(hostRam ? "system RAM" : "GPU memory") + " " + where +
                      ", but no out-of-memory message was printed: " + evidence + "; " + next);
}

// A log with no OOM, nor the marks of one: what it did show.
void reportNoOom(const LogAnalysis& log, Findings& findings) {
  std::string shown;
  if (!log.tool.empty()) shown += "written by " + std::string(log.tool == "a1111" ? "AUTOMATIC1111" : log.tool == "forge" ? "Forge" : "ComfyUI");
  if (log.reachedLine > 0) {
    shown += std::string(shown.empty() ? "" : ", ") + "the last stage the run announced is " + std::string(toString(log.reached)) +
             " (line " + std::to_string(log.reachedLine) + ")";
  }
  if (shown.empty()) shown = "no stage, progress bar or error that a run prints";
  findings.report(RuleId::OL609, lineRange(1, ""), {},
                  "no out-of-memory failure found in this log (" + std::to_string(log.lines) + (log.lines == 1 ? " line" : " lines") +
                      " read as console output): " + shown);
}

}  // namespace

std::string firstChangeFor(Phase phase, std::optional<long> step, int skippedBatches) {
  if (phase == Phase::Load || phase == Phase::Quantize) {
    return "it failed while loading the model, before training: " + firstLevers(phase, 1);
  }
  if (phase == Phase::TeCache) return "it failed encoding captions: quantize the text encoder (quantize_te) or offload it";
  if (phase == Phase::LatentCache) {
    return "it failed encoding the dataset with the VAE: drop the largest resolution bucket (or frames) being cached";
  }
  if (isSampling(phase)) return "it failed while sampling previews: " + firstLevers(phase, 1);
  if (phase == Phase::TrainStep) {
    if (skippedBatches > 0 && (!step || *step > 10)) {
      return "some steps ran and some did not: a borderline config; drop the largest resolution bucket (or frames)";
    }
    return "it failed in the first training steps: " + firstLevers(phase, 3);
  }
  if (phase == Phase::VaeDecode) return "it failed decoding with the VAE: decode tiled (low_vram) or at a smaller size";
  if (phase == Phase::Inference) return "it failed generating: lower the resolution or batch, use tiled VAE or a low-VRAM mode";
  if (phase == Phase::Save) return "it failed while saving: fewer copies in memory (EMA, optimizer state) or save less often";
  return "the phase is not clear from the log: follow the rollback plan in order";
}

void diagnoseLog(const LogAnalysis& log, const TrainerProcess* config, Findings& findings) {
  if (log.offloaded) {
    const std::string size = log.offloadedBytes > 0 ? gib(log.offloadedBytes) + " of weights" : "part of the weights";
    findings.report(RuleId::OL708, lineRange(log.offloadLine, log.offloadText), {},
                    std::string(log.tool == "forge" ? "Forge" : "ComfyUI") + " kept " + size +
                        " in system RAM and streamed them (partial loading): slow, not by itself an out-of-memory error");
  }
  const Range at = lineRange(log.oomLine, log.oomText);
  if (log.suspected) {
    reportSuspicion(log, findings);
    return;
  }
  if (!log.oom) {
    if (!log.failure.empty()) {
      findings.report(RuleId::OL604, lineRange(log.failureLine, log.failure), {},
                      "the run failed with `" + log.failure.substr(0, 160) +
                          "`, not for lack of memory: memory settings will not fix it");
    } else {
      reportNoOom(log, findings);
    }
    return;
  }
  const OomNumbers& n = log.numbers;
  if (log.kind == OomKind::HostRam) {
    findings.report(RuleId::OL603, at, {},
                    "the run ran out of system RAM in " + std::string(toString(log.phase)) + ", not GPU memory: " + hostRamLevers(log));
    return;
  }
  std::string where = log.phase == Phase::Unknown ? "in an unclear phase" : "during " + std::string(toString(log.phase));
  if (log.step) where += " at step " + std::to_string(*log.step);
  std::string figures;
  if (n.triedToAllocate) figures += "; it tried to allocate " + gib(*n.triedToAllocate);
  if (n.free) figures += " with " + gib(*n.free) + " free";
  if (n.totalCapacity) figures += " of " + gib(*n.totalCapacity);
  std::string advice = webUiFirstChange(log);
  if (advice.empty()) advice = firstChangeFor(log.phase, log.step, log.skippedBatches);
  if (config != nullptr && isSampling(log.phase)) {
    advice += " (" + config->sample.pathOf("width").toString() + ", " + config->train.pathOf("disable_sampling").toString() + ")";
  }
  std::string kind = describeKind(log.kind);
  if (log.kind == OomKind::CudaError && log.tool.empty()) kind += ", fatal even inside AI Toolkit's training step";
  findings.report(RuleId::OL601, at, {}, "out of memory " + where + ": " + kind + figures + "; " + advice);
  if (log.gpuStateSuspect) {
    findings.report(RuleId::OL602, at, {},
                    log.gpuStateReason + ": the GPU or worker state, not the config, is the likely cause; run on a fresh "
                                         "worker and do not retry the same job here");
  }
  if (n.reservedUnallocated && n.triedToAllocate && *n.reservedUnallocated >= (1ll << 30) &&
      *n.reservedUnallocated >= *n.triedToAllocate) {
    findings.report(RuleId::OL605, at, {},
                    gib(*n.reservedUnallocated) + " was reserved by PyTorch but unallocated, more than the " +
                        gib(*n.triedToAllocate) + " it needed: set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True "
                        "(Linux; max_split_size_mb on Windows) before changing the config");
  }
  if (log.skippedBatches > 0 && log.continuedAfterOom) {
    findings.report(RuleId::OL606, at, {},
                    "AI Toolkit skipped " + std::to_string(log.skippedBatches) +
                        " batch(es) after an OOM and went on: the config is borderline; drop the largest resolution bucket "
                        "(or frames) so the largest batches fit");
  }
}

}  // namespace oomlint
