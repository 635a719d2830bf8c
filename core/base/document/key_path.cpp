#include "base/document/key_path.h"

#include "base/text/ascii.h"

namespace oomlint {

namespace {

// A key printed bare: it reads back as itself (no separator, bracket or quote in it, not empty).
bool plainKey(std::string_view key) {
  if (key.empty()) return false;
  for (char c : key) {
    if (c == '.' || c == '[' || c == ']' || c == '"' || isAsciiSpace(c)) return false;
  }
  return true;
}

}  // namespace

KeyPath KeyPath::of(std::initializer_list<std::string_view> keys) {
  KeyPath path;
  for (auto k : keys) path.segments_.emplace_back(std::string(k));
  return path;
}

KeyPath KeyPath::key(std::string_view name) const {
  KeyPath out = *this;
  out.segments_.emplace_back(std::string(name));
  return out;
}

KeyPath KeyPath::item(std::size_t index) const {
  KeyPath out = *this;
  out.segments_.emplace_back(index);
  return out;
}

KeyPath KeyPath::then(const KeyPath& rest) const {
  KeyPath out = *this;
  out.segments_.insert(out.segments_.end(), rest.segments_.begin(), rest.segments_.end());
  return out;
}

KeyPath KeyPath::parent() const {
  KeyPath out = *this;
  if (!out.segments_.empty()) out.segments_.pop_back();
  return out;
}

std::string_view KeyPath::lastKey() const {
  if (segments_.empty()) return {};
  const auto* key = std::get_if<std::string>(&segments_.back());
  return key ? std::string_view(*key) : std::string_view();
}

std::string KeyPath::toString() const {
  std::string out;
  for (const auto& segment : segments_) {
    if (const auto* index = std::get_if<std::size_t>(&segment)) {
      out += "[" + std::to_string(*index) + "]";
      continue;
    }
    const std::string& key = std::get<std::string>(segment);
    if (plainKey(key)) {
      if (!out.empty()) out += '.';
      out += key;
    } else {
      out += "[\"";
      for (char c : key) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
      }
      out += "\"]";
    }
  }
  return out;
}

std::optional<KeyPath> KeyPath::parse(std::string_view text) {
  KeyPath path;
  std::size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '[') {
      if (i + 1 < text.size() && text[i + 1] == '"') {  // ["quoted key"]
        std::string key;
        std::size_t j = i + 2;
        for (; j < text.size() && text[j] != '"'; ++j) {
          if (text[j] == '\\' && j + 1 < text.size()) ++j;
          key += text[j];
        }
        if (j + 1 >= text.size() || text[j + 1] != ']') return std::nullopt;
        path.segments_.emplace_back(std::move(key));
        i = j + 2;
      } else {
        const std::size_t close = text.find(']', i);
        if (close == std::string_view::npos || close == i + 1) return std::nullopt;
        std::size_t index = 0;
        for (std::size_t j = i + 1; j < close; ++j) {
          // At most 9 digits: no list is that long, and index × 10 stays within a 32-bit size_t (WebAssembly).
          if (!isAsciiDigit(text[j]) || index >= 100'000'000) return std::nullopt;
          index = index * 10 + static_cast<std::size_t>(text[j] - '0');
        }
        path.segments_.emplace_back(index);
        i = close + 1;
      }
      if (i < text.size() && text[i] == '.') ++i;
      continue;
    }
    const std::size_t end = std::min(text.find_first_of(".[", i), text.size());
    if (end == i) return std::nullopt;
    path.segments_.emplace_back(std::string(text.substr(i, end - i)));
    i = end;
    if (i < text.size() && text[i] == '.') {
      ++i;
      if (i == text.size()) return std::nullopt;
    }
  }
  return path;
}

namespace {

struct PathWalk {
  const Node* value = nullptr;  // the value at the full path, if every segment exists
  Range range;                  // its range, or the deepest existing key's
};

PathWalk walk(const Node* root, const KeyPath& path) {
  PathWalk out;
  if (root == nullptr) return out;
  out.range = Range{root->range.start, root->range.start};
  const Node* node = root->resolved();
  const auto& segments = path.segments();
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const bool last = i + 1 == segments.size();
    if (const auto* index = std::get_if<std::size_t>(&segments[i])) {
      if (!node->isSequence() || *index >= node->items.size()) return out;
      out.range = node->items[*index]->range;
      node = node->items[*index]->resolved();
    } else {
      const MapEntry* entry = node->isMapping() ? node->findEntry(std::get<std::string>(segments[i])) : nullptr;
      if (entry == nullptr) return out;
      out.range = last ? entry->value->range : entry->key->range;  // a missing child points at its parent's key
      node = entry->value->resolved();
    }
  }
  out.value = node;
  return out;
}

}  // namespace

const Node* valueAtPath(const Node* root, const KeyPath& path) { return walk(root, path).value; }

Range rangeOfPath(const Node* root, const KeyPath& path) { return walk(root, path).range; }

}  // namespace oomlint
