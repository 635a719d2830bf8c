// The document layer: a YAML or JSON file as a tree of nodes, each with the exact range of its
// text. Scalars are typed the way AI Toolkit's loader types them (see scalar_resolver.h).
#pragma once

#include "base/rule_ids.h"

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/text/source_text.h"

namespace oomlint {

enum class NodeKind : std::uint8_t { Null, Scalar, Mapping, Sequence, Alias };

// The type a scalar resolves to: what Python sees after loading.
enum class ScalarType : std::uint8_t { Null, Bool, Int, Float, String };

std::string_view toString(ScalarType type);

struct Node;

struct MapEntry {
  const Node* key;
  const Node* value;
};

// The one-byte fields come first, together: a document has a node per value, and start-up reads
// thousands (the embedded knowledge), so padding is memory to fault in.
struct Node {
  NodeKind kind = NodeKind::Null;
  // Scalars: how the value resolves, and whether it was quoted (quoted = always a string).
  ScalarType type = ScalarType::Null;
  bool quoted = false;
  bool boolValue = false;
  bool flowStyle = false;    // written as {…} / […]
  bool hasMergeKey = false;  // Mapping: has a YAML merge key (`<<`), so lookups follow merges
  Range range;
  // Scalars: the decoded value.
  std::string text;
  std::int64_t intValue = 0;
  double floatValue = 0.0;
  std::vector<MapEntry> entries;    // Mapping
  std::vector<const Node*> items;   // Sequence
  const Node* target = nullptr;     // Alias: the anchored node it refers to (never copied)
  // How many nodes this one becomes once every alias is copied out (saturating), as it does when
  // AI Toolkit dumps the loaded config to JSON to substitute [name].
  std::uint64_t expandedSize = 1;

  bool isMapping() const { return resolved()->kind == NodeKind::Mapping; }
  bool isSequence() const { return resolved()->kind == NodeKind::Sequence; }
  bool isScalar() const { return resolved()->kind == NodeKind::Scalar; }
  bool isNull() const { return resolved()->kind == NodeKind::Null || (isScalar() && resolved()->type == ScalarType::Null); }
  // Aliases resolve to their target (alias chains are not possible: an alias names an anchor).
  const Node* resolved() const { return kind == NodeKind::Alias && target ? target : this; }
  // A key `<<` (unquoted) merges a mapping in, as PyYAML's merge tag does.
  bool isMergeKey() const { return isScalar() && resolved()->text == "<<" && !resolved()->quoted; }
  // Mapping lookup by scalar key, honouring YAML merge keys (`<<: *base`), explicit keys first.
  const Node* find(std::string_view key) const;
  // The entry (with its key node) for `key`, if present directly or through a merge key.
  const MapEntry* findEntry(std::string_view key) const;
  // All entries, merged ones included (explicit keys shadow merged ones), in source order.
  std::vector<MapEntry> allEntries() const;
  // Python's truthiness of the loaded value.
  bool truthy() const;
  // Numeric value when the scalar is an int or float.
  bool isNumber() const { return isScalar() && (resolved()->type == ScalarType::Int || resolved()->type == ScalarType::Float); }
  double number() const { return resolved()->type == ScalarType::Int ? static_cast<double>(resolved()->intValue) : resolved()->floatValue; }
};

// A config number as an int, clamped: `resolution: 1e300` or a NaN must not be undefined behaviour.
inline int clampedInt(double value) {
  if (!(value == value)) return 0;  // NaN
  if (value >= 2147483647.0) return 2147483647;
  if (value <= -2147483648.0) return -2147483647 - 1;
  return static_cast<int>(value);
}

// The scalar text at `key` of a mapping (empty when absent, null or not a scalar), and its number.
std::string scalarText(const Node* map, std::string_view key);
double numberAt(const Node* map, std::string_view key, double fallback);
// A scalar's text, or the texts of a list's scalar items; nothing for an absent or null node or a mapping.
std::vector<std::string> scalarTexts(const Node* value);

enum class DocumentFormat { Yaml, Json, Toml };

// A problem found while reading the text (syntax, encoding, limits, duplicate keys…).
struct ReadProblem {
  RuleId code;
  std::string message;
  Range range;
  bool fatal = false;  // the tree is missing or incomplete
};

// Owns the source and every node; node pointers stay valid for the document's lifetime.
class Document {
 public:
  explicit Document(std::shared_ptr<const SourceText> source, DocumentFormat format)
      : source_(std::move(source)), format_(format) {}

  const SourceText& source() const { return *source_; }
  std::shared_ptr<const SourceText> sharedSource() const { return source_; }
  DocumentFormat format() const { return format_; }
  const Node* root() const { return root_; }
  const std::vector<ReadProblem>& problems() const { return problems_; }
  bool fatal() const;

  Node& newNode() { return nodes_.emplace_back(); }
  void setRoot(const Node* root) { root_ = root; }
  void addProblem(ReadProblem problem) { problems_.push_back(std::move(problem)); }
  std::size_t nodeCount() const { return nodes_.size(); }
  const std::deque<Node>& nodes() const { return nodes_; }

 private:
  std::shared_ptr<const SourceText> source_;
  DocumentFormat format_;
  std::deque<Node> nodes_;
  const Node* root_ = nullptr;
  std::vector<ReadProblem> problems_;
};

}  // namespace oomlint
