#include "systems/aitk/lora_targets.h"

#include <algorithm>

namespace oomlint {

namespace {

// A list of words; a lone string is read as one word (lora_special.py would iterate its characters).
std::vector<std::string> wordsOf(const Node* list) {
  std::vector<std::string> words;
  if (list == nullptr) return words;
  if (list->isScalar() && !list->isNull()) words.push_back(list->resolved()->text);
  if (list->isSequence()) {
    for (const Node* item : list->resolved()->items) {
      if (item->isScalar() && !item->isNull()) words.push_back(item->resolved()->text);
    }
  }
  return words;
}

std::vector<std::string> sorted(std::vector<std::string> words) {
  std::sort(words.begin(), words.end());
  return words;
}

}  // namespace

std::optional<NarrowingFilter> narrowingFilter(const TrainerProcess& process) {
  const Node* kwargs = process.network.written("network_kwargs");
  if (kwargs == nullptr || !kwargs->isMapping()) return std::nullopt;
  if (const Node* only = kwargs->find("only_if_contains"); !wordsOf(only).empty()) {
    return NarrowingFilter{only, "only_if_contains", wordsOf(only)};
  }
  const Node* ignore = kwargs->find("ignore_if_contains");
  const std::vector<std::string> words = wordsOf(ignore);
  const std::vector<std::string> preset = process.arch ? process.arch->loraIgnoreIfContains : std::vector<std::string>{};
  if (words.empty() || sorted(words) == sorted(preset)) return std::nullopt;
  return NarrowingFilter{ignore, "ignore_if_contains", words};
}

}  // namespace oomlint
