#include "document/node.h"

#include <algorithm>
#include <unordered_set>

namespace oomlint {

namespace {
// Merge chains deeper than this are not followed (a hostile file could build long ones).
constexpr int kMaxMergeDepth = 16;

const MapEntry* findEntryIn(const Node* map, std::string_view key, int depth) {
  if (map == nullptr || depth > kMaxMergeDepth) return nullptr;
  map = map->resolved();
  if (map->kind != NodeKind::Mapping) return nullptr;
  // The last explicit occurrence wins, as in PyYAML and json.loads.
  for (auto it = map->entries.rbegin(); it != map->entries.rend(); ++it) {
    const Node* k = it->key->resolved();
    if (k->kind == NodeKind::Scalar && k->text == key && !(k->text == "<<" && !k->quoted)) return &*it;
  }
  for (const auto& entry : map->entries) {
    const Node* k = entry.key->resolved();
    if (k->kind != NodeKind::Scalar || k->text != "<<" || k->quoted) continue;
    const Node* source = entry.value->resolved();
    if (source->kind == NodeKind::Mapping) {
      if (const MapEntry* found = findEntryIn(source, key, depth + 1)) return found;
    } else if (source->kind == NodeKind::Sequence) {
      for (const Node* item : source->items) {
        if (const MapEntry* found = findEntryIn(item, key, depth + 1)) return found;
      }
    }
  }
  return nullptr;
}

void collectEntries(const Node* map, std::vector<MapEntry>& out, int depth) {
  if (map == nullptr || depth > kMaxMergeDepth) return;
  map = map->resolved();
  if (map->kind != NodeKind::Mapping) return;
  for (const auto& entry : map->entries) {
    const Node* k = entry.key->resolved();
    if (k->kind == NodeKind::Scalar && k->text == "<<" && !k->quoted) {
      const Node* source = entry.value->resolved();
      if (source->kind == NodeKind::Sequence) {
        for (const Node* item : source->items) collectEntries(item, out, depth + 1);
      } else {
        collectEntries(source, out, depth + 1);
      }
      continue;
    }
    out.push_back(entry);
  }
}
}  // namespace

std::string_view toString(ScalarType type) {
  switch (type) {
    case ScalarType::Null: return "null";
    case ScalarType::Bool: return "boolean";
    case ScalarType::Int: return "integer";
    case ScalarType::Float: return "float";
    case ScalarType::String: return "string";
  }
  return "value";
}

const MapEntry* Node::findEntry(std::string_view key) const { return findEntryIn(this, key, 0); }

const Node* Node::find(std::string_view key) const {
  const MapEntry* entry = findEntry(key);
  return entry ? entry->value : nullptr;
}

std::vector<MapEntry> Node::allEntries() const {
  std::vector<MapEntry> all;
  collectEntries(this, all, 0);
  // Later entries shadow earlier ones with the same key; keep the last of each, in source order.
  std::unordered_set<std::string_view> seen;
  std::vector<MapEntry> unique;
  for (auto it = all.rbegin(); it != all.rend(); ++it) {
    const Node* k = it->key->resolved();
    if (k->kind == NodeKind::Scalar && !seen.insert(k->text).second) continue;
    unique.push_back(*it);
  }
  std::reverse(unique.begin(), unique.end());
  return unique;
}

bool Node::truthy() const {
  const Node* n = resolved();
  switch (n->kind) {
    case NodeKind::Null: return false;
    case NodeKind::Alias: return false;
    case NodeKind::Mapping: return !n->entries.empty();
    case NodeKind::Sequence: return !n->items.empty();
    case NodeKind::Scalar:
      switch (n->type) {
        case ScalarType::Null: return false;
        case ScalarType::Bool: return n->boolValue;
        case ScalarType::Int: return n->intValue != 0;
        case ScalarType::Float: return n->floatValue != 0.0;
        case ScalarType::String: return !n->text.empty();
      }
  }
  return false;
}

std::string scalarText(const Node* map, std::string_view key) {
  const Node* v = map ? map->find(key) : nullptr;
  return v && v->isScalar() && !v->isNull() ? v->resolved()->text : std::string();
}

double numberAt(const Node* map, std::string_view key, double fallback) {
  const Node* v = map ? map->find(key) : nullptr;
  return v && v->isNumber() ? v->number() : fallback;
}

bool Document::fatal() const {
  return std::any_of(problems_.begin(), problems_.end(), [](const ReadProblem& p) { return p.fatal; });
}

}  // namespace oomlint
