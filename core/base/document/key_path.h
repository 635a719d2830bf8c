// Where a value sits in a config: keys and list indices from the root ("config.process[0].train.lr").
// Paths are built from segments and printed here, once; nothing splits a printed path to walk it, so a
// key that contains a dot or a bracket is still one key.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "base/document/node.h"

namespace oomlint {

class KeyPath {
 public:
  using Segment = std::variant<std::string, std::size_t>;  // a mapping key, or a list index

  KeyPath() = default;
  // A path of keys only ("job", "args"): the common case for a top-level setting.
  static KeyPath of(std::initializer_list<std::string_view> keys);
  // Reads a printed path back (what a user or a test writes); nullopt when it is malformed.
  static std::optional<KeyPath> parse(std::string_view text);

  KeyPath key(std::string_view name) const;  // this path, then a mapping key
  KeyPath item(std::size_t index) const;     // this path, then a list index
  KeyPath then(const KeyPath& rest) const;  // this path, then every segment of `rest`
  KeyPath parent() const;

  // In place, for a walk that keeps one path as it descends instead of a copy per key: a segment added, the last
  // one removed.
  void push(std::string_view key) { segments_.emplace_back(std::string(key)); }
  void push(std::size_t index) { segments_.emplace_back(index); }
  void pop() { segments_.pop_back(); }

  bool empty() const { return segments_.empty(); }
  const std::vector<Segment>& segments() const { return segments_; }
  // The last segment when it is a key ("batch_size"); empty for an index or an empty path.
  std::string_view lastKey() const;

  // "config.process[0].train.batch_size"; a key that is not a plain name is quoted (["a.b"]).
  std::string toString() const;

  bool operator==(const KeyPath&) const = default;

 private:
  std::vector<Segment> segments_;
};

// The value written at `path` (aliases resolved), or nullptr when a segment is missing.
const Node* valueAtPath(const Node* root, const KeyPath& path);
// Where `path` is written: its value's range, or, when it is absent, the key of the deepest segment
// that is (the start of the document when none is).
Range rangeOfPath(const Node* root, const KeyPath& path);

}  // namespace oomlint
