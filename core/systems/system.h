// Every input kind is a System with the same small interface. It recognises its own text and turns it
// into a FileReport by the same steps, in this order: read (a document or tokens, every value with its
// range), check (findings on what is written), set up (each setting derived once, keeping its source),
// estimate (per phase, against the GPU), and levers (the rollback plan, on engine/planner). What is the
// same for every kind — the verdict findings, the needed set, placing fixes as edits — lives in engine/;
// choosing the system, the policy and the error guard live in analyze.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "base/document/limits.h"
#include "base/ids.h"
#include "base/input.h"
#include "base/knowledge/knowledge.h"
#include "report/estimate.h"
#include "report/log_analysis.h"
#include "report/report.h"

namespace oomlint {

// Another input of the same call, and the kind analyze.cpp recognised it as.
struct Companion {
  const Input* input = nullptr;
  InputKind kind = InputKind::AiToolkitJob;
};

// What a system is told besides the input.
struct SystemContext {
  const Knowledge& knowledge;
  std::optional<GpuTarget> gpu;  // nullopt: no estimate
  bool gpuGiven = false;         // the user chose the card (else the estimate is against the default)
  const LogAnalysis* attachedLog = nullptr;  // the log of this config's failed run (--log)
  ReadLimits limits;
  bool suppressionsAllowed = true;
  std::optional<std::uint64_t> ramBytes;  // the machine's system RAM (--ram), for the host-RAM verdict
  // The other inputs given together with this one, each with the kind it was recognised as: a system whose
  // jobs span several files reads them as one job (sd-scripts' command line, config and dataset TOMLs; a ComfyUI
  // workflow and the launch line ComfyUI runs it under).
  std::vector<Companion> companions;

  std::vector<const Input*> companionInputs() const {
    std::vector<const Input*> inputs;
    for (const auto& c : companions) inputs.push_back(c.input);
    return inputs;
  }
};

// How sure a system is that a text is its kind: its own top-level keys are certain; a shape that other
// kinds can share (a launch line quoted in a log) is likely, and analyze.cpp breaks such ties.
enum class Recognition { No, Likely, Certain };

class System {
 public:
  virtual ~System() = default;
  virtual InputKind kind() const = 0;
  // Whether text that begins with `head` is this kind, from its content alone (never a file name).
  virtual Recognition recognise(std::string_view head) const = 0;
  virtual FileReport analyze(const Input& input, const SystemContext& context) const = 0;
};

}  // namespace oomlint
