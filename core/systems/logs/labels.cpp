#include "systems/logs/labels.h"

namespace oomlint {

namespace {
std::string text(const Node* map, std::string_view key) { return scalarText(map, key); }
}  // namespace

LabelComparison compareWithLabel(const LogAnalysis& a, const Node* label) {
  LabelComparison c;
  auto differ = [&](std::string_view what, const std::string& got, const std::string& want) {
    c.differences += " " + std::string(what) + " " + got + "/" + want;
  };
  // `oom: suspected` labels an OOM that can only be inferred: found by a suspicion or a certain report
  // alike (c.oom), and told apart only by c.certainty.
  const Node* oom = label->find("oom");
  c.suspectedLabel = text(label, "oom") == "suspected";
  c.oomLabel = c.suspectedLabel || (oom && oom->truthy());
  const bool found = a.oom || a.suspected;
  c.oom = c.oomLabel == found;
  c.certainty = c.suspectedLabel ? a.suspected : c.oomLabel ? a.oom : !found;
  if (!c.oom || !c.certainty) {
    differ("oom", a.oom ? "true" : a.suspected ? "suspected" : "false", c.suspectedLabel ? "suspected" : c.oomLabel ? "true" : "false");
  }
  const std::string kind = text(label, "kind");
  c.kind = kind == toString(a.kind);
  if (!c.kind) differ("kind", std::string(toString(a.kind)), kind);
  const std::string phaseId = text(label, "phase");
  const std::optional<Phase> phase = parsePhase(phaseId);
  if (!phase) c.labelError = "the label's phase `" + phaseId + "` is not a phase id (DESIGN.md: load, train_step, … unknown, none)";
  c.phase = phase == a.phase;
  if (!c.phase) differ("phase", std::string(toString(a.phase)), phaseId);
  const std::string step = text(label, "step");
  const std::string gotStep = a.step ? std::to_string(*a.step) : "";
  c.step = step == gotStep;
  if (!c.step) differ("step", gotStep.empty() ? "null" : gotStep, step.empty() ? "null" : step);
  const Node* suspect = label->find("gpu_state_suspect");
  c.gpuState = (suspect && suspect->truthy()) == a.gpuStateSuspect;
  if (!c.gpuState) differ("gpu_state_suspect", a.gpuStateSuspect ? "true" : "false", a.gpuStateSuspect ? "false" : "true");
  std::string tool = text(label, "tool");
  if (tool != "a1111" && tool != "forge" && tool != "comfyui") tool.clear();  // trainers are not told apart
  c.tool = tool == a.tool;
  if (!c.tool) differ("tool", a.tool.empty() ? "-" : a.tool, tool.empty() ? "-" : tool);
  c.numbers = true;
  const Node* numbers = label->find("numbers");
  const OomNumbers& n = a.numbers;
  for (const auto& [key, got] : {std::pair{"tried_to_allocate", n.triedToAllocate}, {"total_capacity", n.totalCapacity},
                                 {"free", n.free}, {"allocated_by_pytorch", n.allocatedByPytorch},
                                 {"reserved_unallocated", n.reservedUnallocated}, {"process_in_use", n.processInUse}}) {
    const Node* want = numbers ? numbers->find(key) : nullptr;
    const bool expected = want && want->isNumber();
    if (expected != got.has_value() || (expected && static_cast<std::int64_t>(want->number()) != *got)) {
      c.numbers = false;
      differ(key, got ? std::to_string(*got) : "-", expected ? want->resolved()->text : "-");
    }
  }
  return c;
}

}  // namespace oomlint
