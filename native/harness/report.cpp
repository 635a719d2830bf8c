#include "report.h"

#include <nlohmann/json.hpp>

namespace oomlint::harness {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr double kMiB = 1024.0 * 1024.0;

double gib(double bytes) { return bytes / kGiB; }

std::string percentDiff(double estimate, double measured) {
  if (estimate <= 0) return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.0f%%", (measured - estimate) / estimate * 100);
  return buf;
}

void printWorkloadShapes(std::FILE* out, const DenoiserWorkload& w) {
  const BlockShape& b = w.block;
  std::fprintf(out, "    %s: %d blocks, batch %d × %lld tokens (%lld image", w.training ? "training step" : "sampling forward",
               w.blocks, b.batch, static_cast<long long>(b.tokens), static_cast<long long>(w.imageTokens));
  if (w.frames > 1) std::fprintf(out, ", %d frames → %d latent frames", w.frames, w.latentFrames);
  std::fprintf(out, "), hidden %d, %d heads × %d, MLP %lld", b.hidden, b.heads, b.headDim, static_cast<long long>(b.mlpInner));
  if (b.crossTokens > 0) std::fprintf(out, ", cross-attention to %lld text tokens", static_cast<long long>(b.crossTokens));
  if (w.cfgPasses > 1) std::fprintf(out, ", CFG batch of %d", w.cfgPasses);
  std::fprintf(out, "\n");
  for (const auto& g : b.gemms) {
    std::fprintf(out, "      GEMM %-14s m %lld  n %lld  k %lld\n", g.name.c_str(), static_cast<long long>(g.m),
                 static_cast<long long>(g.n), static_cast<long long>(g.k));
  }
  for (const auto& a : b.attentions) {
    const AttentionTiling t = tileAttention(a, kAttentionScratchBudget);
    std::fprintf(
        out, "      %-19s batch %d  heads %d  q %lld  kv %lld  head dim %d  (tiles: %d heads × %lld queries, %.0f MiB scratch)\n",
        a.name.c_str(), a.batch, a.heads, static_cast<long long>(a.queryTokens), static_cast<long long>(a.keyTokens), a.headDim,
        t.headsPerPass, static_cast<long long>(t.queryChunk), t.scratchBytes / kMiB);
  }
  if (w.training) {
    std::uint64_t perBlock = 0;
    for (const auto& t : w.keptPerBlock) perBlock += t.bytes;
    std::fprintf(
        out,
        "      kept until backward: %s × %d blocks (%.2f GiB each)%s; %.2f GiB in all; one block saves %.1f B/token·channel\n",
        w.checkpointing ? "the block input" : "every saved tensor", w.blocks, gib(static_cast<double>(perBlock)),
        w.checkpointing ? " + one block recomputed with grad" : "", gib(static_cast<double>(w.keptBytes)),
        w.keptBytesPerTokenChannel);
  }
  std::fprintf(out, "      weights: %s\n",
               w.weightsFromResident ? "bf16 slices of the resident transformer buffer" : w.weightsNote.c_str());
}

nlohmann::json toJson(const DenoiserWorkload& w) {
  nlohmann::json gemms = nlohmann::json::array();
  for (const auto& g : w.block.gemms) gemms.push_back({{"name", g.name}, {"m", g.m}, {"n", g.n}, {"k", g.k}});
  nlohmann::json attentions = nlohmann::json::array();
  for (const auto& a : w.block.attentions) {
    const AttentionTiling t = tileAttention(a, kAttentionScratchBudget);
    attentions.push_back({{"name", a.name},
                          {"batch", a.batch},
                          {"heads", a.heads},
                          {"query_tokens", a.queryTokens},
                          {"key_tokens", a.keyTokens},
                          {"head_dim", a.headDim},
                          {"heads_per_pass", t.headsPerPass},
                          {"query_chunk", t.queryChunk},
                          {"scratch_bytes", t.scratchBytes}});
  }
  auto tensors = [](const std::vector<SavedTensor>& list) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& t : list) out.push_back({{"name", t.name}, {"bytes", t.bytes}});
    return out;
  };
  return {{"kind", w.training ? "train_step" : "sampling"},
          {"blocks", w.blocks},
          {"batch", w.block.batch},
          {"tokens", w.block.tokens},
          {"image_tokens", w.imageTokens},
          {"cross_tokens", w.block.crossTokens},
          {"frames", w.frames},
          {"latent_frames", w.latentFrames},
          {"width", w.width},
          {"height", w.height},
          {"cfg_passes", w.cfgPasses},
          {"hidden", w.block.hidden},
          {"heads", w.block.heads},
          {"head_dim", w.block.headDim},
          {"mlp_inner", w.block.mlpInner},
          {"checkpointing", w.checkpointing},
          {"gemms", gemms},
          {"attentions", attentions},
          {"saved_per_block", tensors(w.block.saved)},
          {"kept_per_block", tensors(w.keptPerBlock)},
          {"recomputed", tensors(w.recomputed)},
          {"kept_bytes", w.keptBytes},
          {"saved_bytes_per_token_channel", w.keptBytesPerTokenChannel},
          {"weights_from_resident", w.weightsFromResident},
          {"weights_note", w.weightsNote},
          {"text_embedding_bytes", w.textEmbeddingBytes}};
}

nlohmann::json toJson(const VaeWorkload& v) {
  return {{"decode", v.decode},
          {"width", v.width},
          {"height", v.height},
          {"frames", v.frames},
          {"latent_frames", v.latentFrames},
          {"latent_channels", v.latentChannels},
          {"latent_width", v.latentWidth},
          {"latent_height", v.latentHeight},
          {"latent_bytes", v.latentBytes},
          {"work_bytes", v.workBytes}};
}

nlohmann::json toJson(const ReplayPlan& plan) {
  nlohmann::json phases = nlohmann::json::array();
  for (const auto& p : plan.phases) {
    nlohmann::json components = nlohmann::json::array();
    for (const auto& c : p.components) {
      components.push_back({{"name", c.name}, {"bytes", c.bytes}, {"replay", toString(c.replay)}, {"how", c.how}});
    }
    nlohmann::json phase = {{"name", p.name},
                            {"estimate_peak_bytes", p.estimatePeakBytes},
                            {"uncertainty_bytes", p.uncertaintyBytes},
                            {"components", components}};
    if (p.denoiser) phase["denoiser"] = toJson(*p.denoiser);
    if (p.vae) phase["vae"] = toJson(*p.vae);
    phases.push_back(std::move(phase));
  }
  return {{"config", plan.config},   {"architecture", plan.architecture},
          {"gpu", plan.gpu},         {"gpu_bytes", plan.gpuBytes},
          {"verdict", plan.verdict}, {"coarse", plan.coarse},
          {"phases", phases},        {"notes", plan.notes}};
}

nlohmann::json toJson(const PhaseMeasurement& m) {
  nlohmann::json components = nlohmann::json::array();
  for (const auto& c : m.components) {
    components.push_back({{"name", c.name},
                          {"replay", toString(c.replay)},
                          {"estimate_bytes", c.estimateBytes},
                          {"measured_bytes", c.measuredBytes},
                          {"allocated", c.allocated}});
  }
  nlohmann::json out = {{"phase", m.phase},
                        {"ran", m.ran},
                        {"out_of_memory", m.outOfMemory},
                        {"failure", m.failure},
                        {"peak_bytes", m.peakBytes},
                        {"components", components}};
  if (m.workload) {
    const WorkloadMeasurement& w = *m.workload;
    out["workload"] = {{"estimate_bytes", w.estimateBytes},
                       {"used_high_bytes", w.usedHighBytes},
                       {"reserved_high_bytes", w.reservedHighBytes},
                       {"device_high_bytes", w.deviceHighBytes},
                       {"attention_scratch_bytes", w.attentionScratchBytes},
                       {"saved_per_block_bytes", w.savedPerBlockBytes},
                       {"milliseconds", w.milliseconds}};
  }
  return out;
}

}  // namespace

void printPlan(std::FILE* out, const ReplayPlan& plan) {
  std::fprintf(out, "== %s — %s; estimate on %s: %s%s\n", plan.config.c_str(), plan.architecture.c_str(), plan.gpu.c_str(),
               plan.verdict.c_str(), plan.coarse ? " (coarse dimensions)" : "");
  for (const auto& p : plan.phases) {
    std::fprintf(out, "  phase %s: %.2f ± %.2f GiB\n", p.name.c_str(), gib(p.estimatePeakBytes), gib(p.uncertaintyBytes));
    for (const auto& c : p.components) {
      std::fprintf(out, "    %-30s %8.2f GiB  %-8s  %s\n", c.name.c_str(), gib(static_cast<double>(c.bytes)), toString(c.replay),
                   c.how.c_str());
    }
    if (p.denoiser) printWorkloadShapes(out, *p.denoiser);
    if (p.vae) {
      const VaeWorkload& v = *p.vae;
      std::fprintf(out, "    VAE %s: %d×%d px × %d frames ← %d latent frames of %d×%d×%d; working buffer %.2f GiB\n",
                   v.decode ? "decode" : "encode", v.width, v.height, v.frames, v.latentFrames, v.latentChannels, v.latentWidth,
                   v.latentHeight, gib(static_cast<double>(v.workBytes)));
    }
  }
  for (const auto& note : plan.notes) std::fprintf(out, "  note: %s\n", note.c_str());
}

void printCapPlan(std::FILE* out, const CapPlan& cap) {
  std::fprintf(out, "  cap %.1f GiB, the estimate's calls:", cap.capGib);
  for (const auto& e : cap.phases) std::fprintf(out, " %s %s;", e.phase.c_str(), toString(e.expect));
  std::fprintf(out, " peak %s\n", toString(cap.overall));
}

void printDeviceFacts(std::FILE* out, const DeviceFacts& f) {
  std::fprintf(
      out,
      "device: %s (sm_%d%d), %.2f GiB; driver %d, runtime %d, cuBLAS %d\n"
      "  context %.0f MiB, cuBLAS handle %.0f MiB, first GEMM %.0f MiB (workspace, lazy kernels): %.0f MiB before any phase\n"
      "  cudaMalloc granularity %.0f KiB; VMM granularity %.0f KiB (recommended %.0f KiB)\n",
      f.name.c_str(), f.computeMajor, f.computeMinor, gib(static_cast<double>(f.totalBytes)), f.driverVersion, f.runtimeVersion,
      f.cublasVersion, f.contextBytes / kMiB, f.cublasHandleBytes / kMiB, f.cublasFirstGemmBytes / kMiB, f.fixedBytes / kMiB,
      f.mallocGranularity / 1024.0, f.vmmGranularity / 1024.0, f.vmmRecommendedGranularity / 1024.0);
}

void printCase(std::FILE* out, const CaseResult& r) {
  if (!r.plan) {
    std::fprintf(out, "== %s: skipped (%s)\n", r.id.c_str(), r.skipped.c_str());
    return;
  }
  const ReplayPlan& plan = *r.plan;
  std::fprintf(out, "== %s — %s; estimate on %s: %s\n", r.id.c_str(), plan.architecture.c_str(), plan.gpu.c_str(),
               plan.verdict.c_str());
  if (!r.skipped.empty()) std::fprintf(out, "  not run: %s\n", r.skipped.c_str());
  for (const auto& m : r.phases) {
    const PhasePlan* p = plan.phase(m.phase);
    std::fprintf(out, "  phase %-28s %10s %10s %6s\n", m.phase.c_str(), "estimate", "measured", "diff");
    for (const auto& c : m.components) {
      if (c.replay == Replay::Workload) continue;
      char measured[16] = "—";
      if (c.allocated) std::snprintf(measured, sizeof measured, "%.2f", gib(static_cast<double>(c.measuredBytes)));
      std::fprintf(
          out, "    %-32s %7.2f GiB %6s GiB %6s  %s\n", c.name.c_str(), gib(static_cast<double>(c.estimateBytes)), measured,
          c.allocated ? percentDiff(static_cast<double>(c.estimateBytes), static_cast<double>(c.measuredBytes)).c_str() : "",
          toString(c.replay));
    }
    if (m.workload) {
      const WorkloadMeasurement& w = *m.workload;
      std::string names;
      for (const auto& c : m.components) {
        if (c.replay == Replay::Workload) names += (names.empty() ? "" : " + ") + c.name;
      }
      std::fprintf(out,
                   "    %-32s %7.2f GiB %6.2f GiB %6s  workload (device; pool used %.2f, reserved %.2f; attention scratch %.0f "
                   "MiB; %.0f ms)\n",
                   names.c_str(), gib(static_cast<double>(w.estimateBytes)), gib(static_cast<double>(w.deviceHighBytes)),
                   percentDiff(static_cast<double>(w.estimateBytes), static_cast<double>(w.deviceHighBytes)).c_str(),
                   gib(static_cast<double>(w.usedHighBytes)), gib(static_cast<double>(w.reservedHighBytes)),
                   w.attentionScratchBytes / kMiB, w.milliseconds);
      if (p && p->denoiser && w.savedPerBlockBytes > 0) {
        std::uint64_t planned = 0;
        for (const auto& t : p->denoiser->block.saved) planned += t.bytes;
        std::fprintf(out, "    one block with grad saves %.3f GiB (plan %.3f GiB, %.1f B/token·channel)\n",
                     gib(static_cast<double>(w.savedPerBlockBytes)), gib(static_cast<double>(planned)),
                     p->denoiser->keptBytesPerTokenChannel);
      }
    }
    const double estimate = p ? p->estimatePeakBytes : 0;
    if (m.ran) {
      std::fprintf(out, "    %-32s %7.2f GiB %6.2f GiB %6s\n", "peak", gib(estimate), gib(static_cast<double>(m.peakBytes)),
                   percentDiff(estimate, static_cast<double>(m.peakBytes)).c_str());
    } else {
      std::fprintf(out, "    %-32s %7.2f GiB  did not run: %s%s\n", "peak", gib(estimate),
                   m.outOfMemory ? "out of memory at " : "", m.failure.c_str());
    }
  }
  if (r.cap) {
    std::fprintf(out, "  cap %.1f GiB (the estimate calls the peak %s):\n", r.cap->capGib, toString(r.cap->overall));
    for (const auto& o : r.capOutcomes) {
      std::fprintf(out, "    %-28s expected %-10s %-34s %s\n", o.phase.c_str(), toString(o.expect),
                   o.ran ? "ran" : ("failed: " + o.failure).c_str(), o.agrees ? "agrees" : "DISAGREES");
    }
  }
  for (const auto& note : plan.notes) std::fprintf(out, "  note: %s\n", note.c_str());
}

void printSummary(std::FILE* out, const std::vector<CaseResult>& results) {
  std::fprintf(out, "\n%-46s %-12s %10s %10s %6s  %s\n", "case", "peak phase", "estimate", "measured", "diff", "cap check");
  for (const auto& r : results) {
    if (!r.plan) {
      std::fprintf(out, "%-46s skipped: %s\n", r.id.c_str(), r.skipped.c_str());
      continue;
    }
    const PhasePlan* peak = nullptr;
    for (const auto& p : r.plan->phases) {
      if (peak == nullptr || p.estimatePeakBytes > peak->estimatePeakBytes) peak = &p;
    }
    const PhaseMeasurement* measured = nullptr;
    for (const auto& m : r.phases) {
      if (peak && m.phase == peak->name) measured = &m;
    }
    int agreeing = 0;
    for (const auto& o : r.capOutcomes) agreeing += o.agrees ? 1 : 0;
    const std::string cap = r.cap ? std::to_string(agreeing) + "/" + std::to_string(r.capOutcomes.size()) + " agree" : "—";
    if (measured && measured->ran) {
      std::fprintf(out, "%-46s %-12s %6.2f GiB %6.2f GiB %6s  %s\n", r.id.c_str(), peak->name.c_str(),
                   gib(peak->estimatePeakBytes), gib(static_cast<double>(measured->peakBytes)),
                   percentDiff(peak->estimatePeakBytes, static_cast<double>(measured->peakBytes)).c_str(), cap.c_str());
    } else {
      std::fprintf(out, "%-46s %-12s %6.2f GiB %10s %6s  %s\n", r.id.c_str(), peak ? peak->name.c_str() : "—",
                   peak ? gib(peak->estimatePeakBytes) : 0.0, "—", "", cap.c_str());
    }
  }
}

std::string resultsJson(const DeviceFacts* facts, const std::vector<CaseResult>& results) {
  nlohmann::json out;
  out["tool"] = "oomlint-harness";
  if (facts) {
    const DeviceFacts& f = *facts;
    out["device"] = {{"name", f.name},
                     {"compute_capability", std::to_string(f.computeMajor) + "." + std::to_string(f.computeMinor)},
                     {"driver_version", f.driverVersion},
                     {"runtime_version", f.runtimeVersion},
                     {"cublas_version", f.cublasVersion},
                     {"total_bytes", f.totalBytes},
                     {"context_bytes", f.contextBytes},
                     {"cublas_handle_bytes", f.cublasHandleBytes},
                     {"cublas_first_gemm_bytes", f.cublasFirstGemmBytes},
                     {"fixed_bytes", f.fixedBytes},
                     {"malloc_granularity_bytes", f.mallocGranularity},
                     {"vmm_granularity_bytes", f.vmmGranularity},
                     {"vmm_recommended_granularity_bytes", f.vmmRecommendedGranularity}};
  } else {
    out["device"] = nullptr;
  }
  nlohmann::json cases = nlohmann::json::array();
  for (const auto& r : results) {
    nlohmann::json c = {{"id", r.id}, {"skipped", r.skipped}};
    c["plan"] = r.plan ? toJson(*r.plan) : nlohmann::json(nullptr);
    nlohmann::json phases = nlohmann::json::array();
    for (const auto& m : r.phases) phases.push_back(toJson(m));
    c["measured"] = phases;
    if (r.cap) {
      nlohmann::json expected = nlohmann::json::array();
      for (const auto& e : r.cap->phases) {
        expected.push_back({{"phase", e.phase},
                            {"peak_bytes", e.peakBytes},
                            {"uncertainty_bytes", e.uncertaintyBytes},
                            {"expect", toString(e.expect)}});
      }
      nlohmann::json outcomes = nlohmann::json::array();
      for (const auto& o : r.capOutcomes) {
        outcomes.push_back(
            {{"phase", o.phase}, {"expect", toString(o.expect)}, {"ran", o.ran}, {"failure", o.failure}, {"agrees", o.agrees}});
      }
      c["cap"] = {{"cap_gib", r.cap->capGib},
                  {"cap_bytes", r.cap->capBytes},
                  {"overall", toString(r.cap->overall)},
                  {"expected", expected},
                  {"outcomes", outcomes}};
    }
    cases.push_back(std::move(c));
  }
  out["cases"] = cases;
  return out.dump(2) + "\n";
}

}  // namespace oomlint::harness
