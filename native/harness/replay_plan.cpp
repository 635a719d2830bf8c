#include "replay_plan.h"

#include <algorithm>

namespace oomlint::harness {

const char* toString(Replay replay) {
  switch (replay) {
    case Replay::Context:
      return "context";
    case Replay::Resident:
      return "resident";
    case Replay::Workload:
      return "workload";
  }
  return "resident";
}

const char* toString(Expectation expectation) {
  switch (expectation) {
    case Expectation::Fits:
      return "fits";
    case Expectation::Oom:
      return "oom";
    case Expectation::Either:
      return "borderline";
  }
  return "fits";
}

std::uint64_t PhasePlan::bytesOf(Replay replay) const {
  std::uint64_t total = 0;
  for (const auto& c : components) {
    if (c.replay == replay) total += c.bytes;
  }
  return total;
}

std::uint64_t PhasePlan::totalBytes() const {
  std::uint64_t total = 0;
  for (const auto& c : components) total += c.bytes;
  return total;
}

const PhasePlan* ReplayPlan::phase(std::string_view name) const {
  for (const auto& p : phases) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

AttentionTiling tileAttention(const Attention& a, std::uint64_t scratchBudgetBytes) {
  constexpr std::uint64_t kScoreBytes = 4 + 2;  // fp32 scores, then bf16 probabilities for the PV GEMM
  constexpr std::int64_t kMinChunk = 64;        // below this the GEMMs stop using tensor cores well
  AttentionTiling t;
  if (a.heads <= 0 || a.queryTokens <= 0 || a.keyTokens <= 0) return t;
  const std::uint64_t perRow = static_cast<std::uint64_t>(a.keyTokens) * kScoreBytes;
  const std::int64_t rows = std::max<std::int64_t>(1, static_cast<std::int64_t>(scratchBudgetBytes / perRow));
  const std::int64_t smallest = std::min(a.queryTokens, kMinChunk);
  if (rows >= static_cast<std::int64_t>(a.heads) * smallest) {
    t.headsPerPass = a.heads;
    t.queryChunk = std::min(a.queryTokens, rows / a.heads);
    if (t.queryChunk < a.queryTokens && t.queryChunk > 16) t.queryChunk -= t.queryChunk % 16;
  } else {
    t.queryChunk = smallest;
    t.headsPerPass = static_cast<int>(std::max<std::int64_t>(1, rows / smallest));
  }
  t.scratchBytes = static_cast<std::uint64_t>(t.headsPerPass) * static_cast<std::uint64_t>(t.queryChunk) * perRow;
  return t;
}

}  // namespace oomlint::harness
