// What a console log says: the out-of-memory failure (kind, phase, step, the figures it printed) and
// what else the scanner saw. systems/logs/ reads logs into it; report/ and format/ carry it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/ids.h"
#include "base/oom_kind.h"

namespace oomlint {

// Figures of the last OOM message, in bytes; each only when the message printed it.
struct OomNumbers {
  std::optional<std::int64_t> triedToAllocate;
  std::optional<std::int64_t> totalCapacity;
  std::optional<std::int64_t> free;
  std::optional<std::int64_t> allocatedByPytorch;
  std::optional<std::int64_t> reservedUnallocated;
  std::optional<std::int64_t> processInUse;
  std::int64_t otherProcesses = 0;  // "Process N has X memory in use" for other processes, summed
  bool operator==(const OomNumbers&) const = default;
};

// A line of the log that an inferred OOM rests on, and what it shows.
struct LogEvidence {
  int line = 0;       // 1-based
  std::string text;   // the line (trimmed, at most 400 bytes)
  std::string why;    // what it shows, in words
  bool operator==(const LogEvidence&) const = default;
};

struct LogAnalysis {
  bool oom = false;                  // an out-of-memory message was printed: certain
  // No message, but the log shows an OOM's marks (a kill by SIGKILL, a child gone silently mid-stage, a
  // cache step failing on some images): suspected, never certain. `oom` stays false; kind, phase and
  // step then describe the suspected failure, and `evidence` says what it rests on.
  bool suspected = false;
  std::vector<LogEvidence> evidence;
  OomKind kind = OomKind::None;
  Phase phase = Phase::None;         // where it ran out: Unknown when unclear, None without an OOM
  std::optional<long> step;          // training step being run
  bool gpuStateSuspect = false;
  std::string gpuStateReason;
  OomNumbers numbers;
  int oomLine = 0;                   // 1-based line of the last OOM message (of a suspicion: its main evidence)
  std::string oomText;               // that line (trimmed, at most 400 bytes; a wrapped message joined)
  int skippedBatches = 0;            // AI Toolkit's "skipping batch k/3" banners
  bool abortedAfterRetries = false;  // "OOM during training step 3 times in a row"
  bool continuedAfterOom = false;    // training steps completed after a skipped batch
  // The generation UI that wrote the log ("a1111", "forge", "comfyui"; empty for trainers and the
  // unknown), and the flags it was launched with ("Launching Web UI with arguments: …").
  std::string tool;
  std::string launchArgs;
  // The trainer whose own lines were seen (its install path, scripts, banners: rules/logs.yaml trainers), "ai-toolkit",
  // "musubi-tuner" or "sd-scripts"; empty when none was: its levers apply.
  std::string trainer;
  bool aiToolkit() const { return trainer == kAiToolkitTrainer; }
  // What ComfyUI printed at start: the card's memory ("Total VRAM 16311 MB") and the memory mode its flags chose
  // ("Set vram state to: NO_VRAM"); launchArgs then holds the flag that sets that mode (--novram), where one does, and
  // --enable-dynamic-vram where it printed that dynamic VRAM is on; and its release ("ComfyUI version: 0.16.4").
  std::optional<std::int64_t> cardBytes;
  std::string vramState;
  std::string toolVersion;

  // The card the run had: its OOM message's total capacity, else ComfyUI's start-up line.
  std::optional<std::int64_t> cardCapacity() const { return numbers.totalCapacity ? numbers.totalCapacity : cardBytes; }
  // A memory manager kept weights in system RAM (ComfyUI "loaded partially", Forge "Swap Loaded"): slow,
  // not an OOM. The bytes when the line says them (0 when it does not), and where.
  bool offloaded = false;
  std::int64_t offloadedBytes = 0;
  int offloadLine = 0;
  std::string offloadText;
  std::string failure;               // the error a run died of when it was not an OOM
  int failureLine = 0;
  // The last stage the run announced (a marker, a bar), whatever happened after: what a log without an
  // OOM showed, and where a suspected OOM struck.
  Phase reached = Phase::None;
  int reachedLine = 0;
  std::string reachedText;
  std::uint64_t bytes = 0;
  std::uint64_t lines = 0;
  bool operator==(const LogAnalysis&) const = default;
};

}  // namespace oomlint
