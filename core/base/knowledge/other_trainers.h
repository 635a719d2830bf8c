// Trainers whose configs oomlint does not read (rules/other-trainers.yaml), known by top-level keys that no
// input oomlint reads writes there: such a file gets one finding instead of a check it was not written for.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/knowledge/knowledge_text.h"

namespace oomlint {

struct Node;

struct OtherTrainer {
  KnowledgeText name;  // OneTrainer
  KnowledgeText what;  // "a OneTrainer config or training preset"
  std::vector<std::vector<KnowledgeText>> signatures;  // each: keys that are all at the top level
};

template <class V> void fields(V& v, OtherTrainer& x) { v(x.name, x.what, x.signatures); }

struct OtherTrainerMatch {
  const OtherTrainer* trainer = nullptr;
  const std::vector<KnowledgeText>* signature = nullptr;
  const Node* key = nullptr;  // the signature's first key, where a finding points
};

struct OtherTrainers {
  std::vector<OtherTrainer> trainers;

  // The trainer whose signature the document's top level carries: the keys of its mapping, or of every mapping
  // in a top-level list.
  std::optional<OtherTrainerMatch> match(const Node* root) const;
};

template <class V> void fields(V& v, OtherTrainers& x) { v(x.trainers); }

}  // namespace oomlint
