#include "base/knowledge/other_trainers.h"

#include <algorithm>

#include "base/document/node.h"

namespace oomlint {

namespace {

// The first key of `signature` in `map` when all of them are there.
const Node* signatureIn(const Node* map, const std::vector<KnowledgeText>& signature) {
  if (!map->isMapping() || signature.empty()) return nullptr;
  const bool all = std::all_of(signature.begin(), signature.end(), [&](std::string_view key) { return map->findEntry(key) != nullptr; });
  return all ? map->findEntry(signature.front())->key : nullptr;
}

}  // namespace

std::optional<OtherTrainerMatch> OtherTrainers::match(const Node* root) const {
  if (root == nullptr) return std::nullopt;
  root = root->resolved();
  for (const OtherTrainer& trainer : trainers) {
    for (const auto& signature : trainer.signatures) {
      if (root->isMapping()) {
        if (const Node* key = signatureIn(root, signature)) return OtherTrainerMatch{&trainer, &signature, key};
      } else if (root->isSequence() && !root->items.empty()) {
        const Node* first = nullptr;
        const bool every = std::all_of(root->items.begin(), root->items.end(), [&](const Node* item) {
          const Node* key = signatureIn(item->resolved(), signature);
          if (first == nullptr) first = key;
          return key != nullptr;
        });
        if (every) return OtherTrainerMatch{&trainer, &signature, first};
      }
    }
  }
  return std::nullopt;
}

}  // namespace oomlint
