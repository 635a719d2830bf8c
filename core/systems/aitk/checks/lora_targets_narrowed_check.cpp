// OL420 lora-targets-narrowed: network_kwargs leaves layers out of the adapter, which the estimate does not cost.
#include <algorithm>

#include "systems/aitk/checks/checks.h"

namespace oomlint {

namespace {

std::vector<std::string> wordsOf(const Node* list) {
  std::vector<std::string> words;
  if (list == nullptr) return words;
  if (list->isScalar()) words.push_back(list->resolved()->text);
  if (list->isSequence()) {
    for (const Node* item : list->resolved()->items) {
      if (item->isScalar()) words.push_back(item->resolved()->text);
    }
  }
  return words;
}

std::string quoted(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : ", ") + ("\"" + w + "\"");
  return "[" + out + "]";
}

}  // namespace

// lora_special.py keeps a Linear only when no ignore_if_contains word and (if given) an only_if_contains word is
// in its name. The architecture's lora_params_per_rank counts every Linear of its blocks, less the UI preset's own
// filter (HiDream's MoE experts): the LoRA a narrower filter builds is smaller, and so are the inputs its adapted
// layers keep for backward, by amounts that depend on which layers match (not modelled).
void checkLoraTargetsNarrowed(const AitkCheckContext& c, Findings& findings) {
  const Section& net = c.process.network;
  const Node* kwargs = net.written("network_kwargs");
  if (kwargs == nullptr || !kwargs->isMapping()) return;
  const KeyPath path = net.pathOf("network_kwargs");
  const std::string arch = c.process.arch ? c.process.arch->label : std::string("this architecture");
  const std::string counted = "; the estimate counts AI Toolkit's default targets for " + arch +
                              ", so the adapter's trainable state and the inputs its layers keep for backward are an upper bound";
  if (const Node* only = kwargs->find("only_if_contains"); only && !wordsOf(only).empty()) {
    findings.report(RuleId::OL420, only->range, path.key("only_if_contains"),
                    "only_if_contains " + quoted(wordsOf(only)) + " adapts only the layers whose names hold one of these" + counted);
    return;
  }
  const Node* ignore = kwargs->find("ignore_if_contains");
  std::vector<std::string> words = wordsOf(ignore);
  std::vector<std::string> preset = c.process.arch ? c.process.arch->loraIgnoreIfContains : std::vector<std::string>{};
  std::sort(words.begin(), words.end());
  std::sort(preset.begin(), preset.end());
  if (words.empty() || words == preset) return;
  findings.report(RuleId::OL420, ignore->range, path.key("ignore_if_contains"),
                  "ignore_if_contains " + quoted(wordsOf(ignore)) + " leaves the layers whose names hold one of these out" +
                      (preset.empty() ? "" : " (the preset's own filter is " + quoted(c.process.arch->loraIgnoreIfContains) + ")") +
                      counted);
}

}  // namespace oomlint
