#include "systems/aitk/lora_targets.h"

#include <algorithm>

namespace oomlint {

namespace {

template <class Words>
std::vector<std::string> sorted(const Words& words) {
  std::vector<std::string> out(words.begin(), words.end());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

std::optional<NarrowingFilter> narrowingFilter(const TrainerProcess& process) {
  // A lone string is read as one word (lora_special.py would iterate its characters).
  const Node* kwargs = process.network.written("network_kwargs");
  if (kwargs == nullptr || !kwargs->isMapping()) return std::nullopt;
  const Node* only = kwargs->find("only_if_contains");
  if (std::vector<std::string> words = scalarTexts(only); !words.empty()) return NarrowingFilter{only, "only_if_contains", std::move(words)};
  const Node* ignore = kwargs->find("ignore_if_contains");
  const std::vector<std::string> words = scalarTexts(ignore);
  const bool presetsOwn = process.arch && sorted(words) == sorted(process.arch->loraIgnoreIfContains);
  if (words.empty() || presetsOwn) return std::nullopt;
  return NarrowingFilter{ignore, "ignore_if_contains", words};
}

}  // namespace oomlint
