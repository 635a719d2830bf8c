// The keys one mapping has had so far, so that a reader finds a duplicate in constant time (a
// hostile file can put hundreds of thousands of keys in one mapping).
#pragma once

#include <string_view>
#include <unordered_map>

#include "base/document/node.h"

namespace oomlint {

class KeyIndex {
 public:
  // Records `key` (a scalar) and returns the key node that first had its text, or nullptr if none.
  // The view is into the node's text, which lives as long as the document.
  const Node* firstWithSameText(const Node& key) {
    const auto [it, inserted] = first_.try_emplace(key.text, &key);
    return inserted ? nullptr : it->second;
  }

 private:
  std::unordered_map<std::string_view, const Node*> first_;
};

}  // namespace oomlint
