#include "engine/windows_evidence.h"

namespace oomlint {

namespace {

// A config nests a few levels; the bound keeps a hostile document from recursing deep.
constexpr int kMaxDepth = 16;

// The values as written, each once: an alias is looked through only to a scalar, and a merge key not at all, so an
// alias bomb (merges of merges) costs what its text does.
std::optional<WindowsEvidence> search(const Node* node, const KeyPath& at, int depth) {
  if (node == nullptr || depth > kMaxDepth) return std::nullopt;
  const Node* n = node->resolved();
  if (n != node && !n->isScalar()) return std::nullopt;
  if (n->isScalar()) {
    if (n->type == ScalarType::String && isWindowsPath(n->text)) return WindowsEvidence{node->range, at, n->text};
    return std::nullopt;
  }
  if (n->isMapping()) {
    for (const MapEntry& e : n->entries) {
      if (e.key->isMergeKey()) continue;
      if (auto found = search(e.value, at.key(e.key->resolved()->text), depth + 1)) return found;
    }
  } else if (n->isSequence()) {
    for (std::size_t i = 0; i < n->items.size(); ++i) {
      if (auto found = search(n->items[i], at.item(i), depth + 1)) return found;
    }
  }
  return std::nullopt;
}

}  // namespace

bool isWindowsPath(std::string_view text) {
  const auto separator = [](char c) { return c == '\\' || c == '/'; };
  const bool drive = text.size() >= 3 && ((text[0] >= 'A' && text[0] <= 'Z') || (text[0] >= 'a' && text[0] <= 'z')) &&
                     text[1] == ':' && separator(text[2]);
  const bool share = text.size() >= 3 && text[0] == '\\' && text[1] == '\\' && text[2] != '\\' && text[2] != '?';
  return drive || share;
}

std::optional<WindowsEvidence> windowsPathUnder(const Node* node, const KeyPath& at) { return search(node, at, 0); }

}  // namespace oomlint
