#include "base/document/node.h"

#include <algorithm>
#include <unordered_set>

namespace oomlint {

namespace {
// Merge chains deeper than this are not followed: each level is a recursion, and a hostile file can
// chain thousands of anchors without nesting anything.
constexpr int kMaxMergeDepth = 16;

// Visits a mapping's entries from the one that wins to the one that loses, the way PyYAML's
// flatten_mapping orders them (later entries override earlier ones, explicit keys come after every
// merged one; of `<<: [*a, *b]`, a's keys win), until `visit` returns true. Each mapping is walked
// once per traversal if it merges others: a second visit could only yield entries already shadowed,
// and skipping it is what keeps `<<: [*a, *a, …]` nested n levels linear instead of exponential.
// (Mappings without merge keys are not recorded: revisiting one costs only its own entries, and a
// plain lookup then allocates nothing.)
template <typename Visit>
bool walkByPrecedence(const Node* map, int depth, std::unordered_set<const Node*>& walked, Visit& visit) {
  if (map == nullptr || depth > kMaxMergeDepth) return false;
  map = map->resolved();
  if (map->kind != NodeKind::Mapping) return false;
  const bool merges = map->hasMergeKey;
  if (merges && !walked.insert(map).second) return false;
  for (auto it = map->entries.rbegin(); it != map->entries.rend(); ++it) {
    if ((!merges || !it->key->isMergeKey()) && visit(*it)) return true;
  }
  if (!merges) return false;
  for (auto it = map->entries.rbegin(); it != map->entries.rend(); ++it) {
    if (!it->key->isMergeKey()) continue;
    const Node* source = it->value->resolved();
    if (source->kind == NodeKind::Sequence) {
      for (const Node* item : source->items) {
        if (walkByPrecedence(item, depth + 1, walked, visit)) return true;
      }
    } else if (walkByPrecedence(source, depth + 1, walked, visit)) {
      return true;
    }
  }
  return false;
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

const MapEntry* Node::findEntry(std::string_view key) const {
  const MapEntry* found = nullptr;
  auto matches = [&](const MapEntry& entry) {
    const Node* k = entry.key->resolved();
    if (k->kind != NodeKind::Scalar || k->text != key) return false;
    found = &entry;
    return true;
  };
  std::unordered_set<const Node*> walked;
  walkByPrecedence(this, 0, walked, matches);
  return found;
}

const Node* Node::find(std::string_view key) const {
  const MapEntry* entry = findEntry(key);
  return entry ? entry->value : nullptr;
}

std::vector<MapEntry> Node::allEntries() const {
  // Collected winner first, the first of each key kept; reversed at the end into PyYAML's order.
  std::vector<MapEntry> winners;
  std::unordered_set<std::string_view> seen;
  auto keep = [&](const MapEntry& entry) {
    const Node* k = entry.key->resolved();
    if (k->kind != NodeKind::Scalar || seen.insert(k->text).second) winners.push_back(entry);
    return false;
  };
  std::unordered_set<const Node*> walked;
  walkByPrecedence(this, 0, walked, keep);
  std::reverse(winners.begin(), winners.end());
  return winners;
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

std::vector<std::string> scalarTexts(const Node* value) {
  std::vector<std::string> out;
  if (value == nullptr || value->isNull()) return out;
  if (value->isScalar()) out.push_back(value->resolved()->text);
  if (value->isSequence()) {
    for (const Node* item : value->resolved()->items) {
      if (item->isScalar() && !item->isNull()) out.push_back(item->resolved()->text);
    }
  }
  return out;
}

double numberAt(const Node* map, std::string_view key, double fallback) {
  const Node* v = map ? map->find(key) : nullptr;
  return v && v->isNumber() ? v->number() : fallback;
}

bool Document::fatal() const {
  return std::any_of(problems_.begin(), problems_.end(), [](const ReadProblem& p) { return p.fatal; });
}

}  // namespace oomlint
