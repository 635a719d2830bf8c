#include "systems/aitk/lora_targets.h"

#include <algorithm>

namespace oomlint {

namespace {

std::vector<std::string> sorted(std::vector<std::string> words) {
  std::sort(words.begin(), words.end());
  return words;
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
  const std::vector<std::string> preset = process.arch ? std::vector<std::string>(process.arch->loraIgnoreIfContains.begin(), process.arch->loraIgnoreIfContains.end()) : std::vector<std::string>{};
  if (words.empty() || sorted(words) == sorted(preset)) return std::nullopt;
  return NarrowingFilter{ignore, "ignore_if_contains", words};
}

}  // namespace oomlint
