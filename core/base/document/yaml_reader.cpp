// YAML → Document, on top of yaml-cpp's event parser. yaml-cpp reports where each node starts;
// where it ends is recovered here from the source text, following the YAML scanning rules for
// each scalar style, so that every key and value carries its exact range.
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <map>
#ifndef YAML_CPP_FROM_MEMORY
#include <sstream>
#endif
#include <unordered_map>

#include "base/document/key_index.h"
#include "base/document/reader.h"
#include "base/document/scalar_resolver.h"
#include "base/document/yaml_text.h"

namespace oomlint {

namespace {

struct LimitExceeded {
  std::string message;
  std::size_t offset;
};

std::uint64_t saturatingAdd(std::uint64_t a, std::uint64_t b) {
  constexpr std::uint64_t kMax = std::uint64_t{1} << 62;
  return a >= kMax || b >= kMax || a + b >= kMax ? kMax : a + b;
}

// The alias through which most of an oversized expansion comes: follow the largest child down.
const Node* largestAlias(const Node* node) {
  while (node != nullptr && node->kind != NodeKind::Alias) {
    const Node* next = nullptr;
    for (const auto& entry : node->entries) {
      for (const Node* n : {entry.key, entry.value}) {
        if (next == nullptr || n->expandedSize > next->expandedSize) next = n;
      }
    }
    for (const Node* item : node->items) {
      if (next == nullptr || item->expandedSize > next->expandedSize) next = item;
    }
    node = next;
  }
  return node;
}

// A construct yaml-cpp accepts but PyYAML refuses, found while building the tree.
struct SyntaxError {
  std::string message;
  std::size_t start;
  std::size_t end;
};

struct SecondDocument {
  std::size_t offset;
};

class TreeBuilder final : public YAML::EventHandler {
 public:
  TreeBuilder(Document& doc, const ReadLimits& limits, std::size_t bomBytes)
      : doc_(doc), text_(doc.source().text()), limits_(limits), bom_(bomBytes) {}

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    Node& node = make(mark);
    node.kind = NodeKind::Null;
    node.type = ScalarType::Null;
    // An empty value has no text of its own: place it just after its key's colon, or at the mark.
    std::size_t at = offset(mark);
    if (!frames_.empty() && frames_.back().node->kind == NodeKind::Mapping && !frames_.back().expectingKey) {
      at = afterColon(text_, frames_.back().pendingKey->range.end.offset);
    }
    node.range = doc_.source().rangeOf(at, at);
    attach(node, anchor);
  }

  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    Node& node = make(mark);
    node.kind = NodeKind::Alias;
    auto it = anchors_.find(anchor);
    node.target = it == anchors_.end() ? nullptr : it->second;
    const std::size_t start = offset(mark);
    node.range = doc_.source().rangeOf(start, aliasEnd(text_, start));
    // The target is complete before any alias can name it, so its expanded size is final.
    node.expandedSize = node.target ? node.target->expandedSize : 1;
    attach(node, 0);
  }

  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    Node& node = make(mark);
    const std::size_t start = skipProperties(text_, offset(mark));
    const char first = start < text_.size() ? text_[start] : '\0';
    node.text = value;
    // yaml-cpp tags plain scalars "?" and every other style "!": only plain ones are resolved.
    node.quoted = tag != "?";
    resolveScalar(node);
    if (tag != "?" && tag != "!") applyExplicitTag(node, tag);
    std::size_t end = start;
    if (first == '"' || first == '\'') {
      const auto closed = quotedEnd(text_, start);
      // yaml-cpp lets the file's end close a quoted scalar; PyYAML (and so AI Toolkit) refuses it.
      if (!closed) {
        throw SyntaxError{"unclosed quote: the string that starts here is never closed before the end of the file "
                          "(PyYAML: found unexpected end of stream)",
                          start, text_.size()};
      }
      end = *closed;
    } else if ((first == '|' || first == '>') && node.quoted) {
      end = blockScalarEnd(text_, start, ownerIndent());
    } else {
      end = plainEnd(text_, start, inFlow(), value.size());
    }
    node.range = doc_.source().rangeOf(start, end);
    attach(node, anchor);
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value style) override {
    open(mark, NodeKind::Sequence, anchor, style == YAML::EmitterStyle::Flow);
  }
  void OnSequenceEnd() override { close(); }

  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value style) override {
    open(mark, NodeKind::Mapping, anchor, style == YAML::EmitterStyle::Flow);
  }
  void OnMapEnd() override { close(); }

  const Node* root() const { return root_; }

 private:
  struct Frame {
    Node* node;
    bool expectingKey = true;
    const Node* pendingKey = nullptr;
    std::size_t lastEnd = 0;
    KeyIndex keys;
  };

  std::size_t offset(const YAML::Mark& mark) const {
    return mark.pos < 0 ? 0 : static_cast<std::size_t>(mark.pos) + bom_;
  }

  Node& make(const YAML::Mark& mark) {
    if (doc_.nodeCount() >= limits_.maxNodes) {
      throw LimitExceeded{"the document has more than " + std::to_string(limits_.maxNodes) + " nodes", offset(mark)};
    }
    return doc_.newNode();
  }

  bool inFlow() const {
    for (const auto& f : frames_) {
      if (f.node->flowStyle) return true;
    }
    return false;
  }

  // The column (in bytes) a block scalar's content must be indented beyond.
  long ownerIndent() const {
    if (frames_.empty()) return -1;
    const Frame& top = frames_.back();
    if (top.node->kind == NodeKind::Mapping && top.pendingKey != nullptr) {
      return static_cast<long>(indentOfLineAt(text_, top.pendingKey->range.start.offset));
    }
    return static_cast<long>(top.node->range.start.offset - lineStartAt(text_, top.node->range.start.offset));
  }

  void open(const YAML::Mark& mark, NodeKind kind, YAML::anchor_t anchor, bool flow) {
    if (static_cast<int>(frames_.size()) >= limits_.maxDepth) {
      throw LimitExceeded{"nesting is deeper than " + std::to_string(limits_.maxDepth) + " levels", offset(mark)};
    }
    Node& node = make(mark);
    node.kind = kind;
    node.flowStyle = flow;
    const std::size_t start = skipProperties(text_, offset(mark));
    node.range = doc_.source().rangeOf(start, start);
    attach(node, anchor);
    frames_.push_back(Frame{.node = &node, .lastEnd = start + (flow ? 1 : 0), .keys = {}});
  }

  void close() {
    Frame frame = frames_.back();
    frames_.pop_back();
    std::size_t end = frame.lastEnd;
    if (frame.node->flowStyle) end = flowCloseEnd(text_, end);
    frame.node->range.end = doc_.source().positionAt(end);
    std::uint64_t size = 1;
    for (const auto& entry : frame.node->entries) size = saturatingAdd(size, entry.key->expandedSize + entry.value->expandedSize);
    for (const Node* item : frame.node->items) size = saturatingAdd(size, item->expandedSize);
    frame.node->expandedSize = size;
    if (!frames_.empty()) frames_.back().lastEnd = std::max(frames_.back().lastEnd, end);
  }

  void attach(Node& node, YAML::anchor_t anchor) {
    if (anchor != 0) anchors_[anchor] = &node;
    if (frames_.empty()) {
      if (root_ == nullptr) root_ = &node;
      return;
    }
    Frame& top = frames_.back();
    top.lastEnd = std::max(top.lastEnd, node.range.end.offset);
    if (top.node->kind == NodeKind::Sequence) {
      top.node->items.push_back(&node);
      return;
    }
    if (top.expectingKey) {
      if (!top.node->flowStyle) requireColon(node);
      top.pendingKey = &node;
      top.expectingKey = false;
      return;
    }
    reportDuplicate(top.keys, *top.pendingKey);
    if (top.pendingKey->isMergeKey()) top.node->hasMergeKey = true;
    top.node->entries.push_back({top.pendingKey, &node});
    top.expectingKey = true;
  }

  // yaml-cpp takes a lone word on a block mapping's last line for a key with an empty value; PyYAML
  // (and so AI Toolkit) refuses the file: "could not find expected ':'".
  void requireColon(const Node& key) const {
    if (key.kind != NodeKind::Scalar && key.kind != NodeKind::Alias) return;
    const std::size_t end = key.range.end.offset;
    if (afterColon(text_, end) != end || isExplicitKey(text_, key.range.start.offset)) return;
    const std::size_t length = end - key.range.start.offset;
    const std::string what = length <= 40 ? "`" + text_.substr(key.range.start.offset, length) + "`" : "this key";
    throw SyntaxError{what + " is not a `key: value` entry: every line of a mapping needs a colon after its key "
                             "(PyYAML: could not find expected ':')",
                      key.range.start.offset, end};
  }

  void reportDuplicate(KeyIndex& keys, const Node& key) {
    if (key.kind != NodeKind::Scalar || key.isMergeKey()) return;
    if (const Node* first = keys.firstWithSameText(key)) {
      doc_.addProblem({RuleId::OL104,
                       "duplicate key `" + key.text + "`: the loader keeps only this later value (first at line " +
                           std::to_string(first->range.start.line) + ")",
                       key.range, false});
    }
  }

  Document& doc_;
  const std::string& text_;
  const ReadLimits& limits_;
  std::size_t bom_;
  std::vector<Frame> frames_;
  std::unordered_map<YAML::anchor_t, const Node*> anchors_;
  const Node* root_ = nullptr;
};

// Sees only whether a second document starts, then stops the parser.
class DocumentProbe final : public YAML::EventHandler {
 public:
  explicit DocumentProbe(std::size_t bom) : bom_(bom) {}
  void OnDocumentStart(const YAML::Mark& mark) override {
    throw SecondDocument{mark.pos < 0 ? 0 : static_cast<std::size_t>(mark.pos) + bom_};
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}

 private:
  std::size_t bom_;
};

std::string explainParserMessage(const std::string& msg) {
  static const std::map<std::string, std::string, std::less<>> hints = {
      {"end of map not found", "a mapping ends here unexpectedly (check the indentation, quotes and colons)"},
      {"end of sequence not found", "a list ends here unexpectedly (check the indentation of its `-` items)"},
      {"end of map flow not found", "a `{` mapping is not closed with `}`"},
      {"end of sequence flow not found", "a `[` list is not closed with `]`"},
      {"illegal map value", "a `:` is not allowed here (quote a value that contains `: `)"},
      {"block sequence entries are not allowed in this context", "a `- ` list item is not allowed here"},
      {"illegal tab when looking for indentation", "a tab is used for indentation: YAML allows only spaces"},
  };
  auto it = hints.find(msg);
  return it == hints.end() ? msg : it->second + " [" + msg + "]";
}

}  // namespace

std::unique_ptr<Document> readYaml(std::shared_ptr<const SourceText> source, const ReadLimits& limits) {
  auto doc = std::make_unique<Document>(source, DocumentFormat::Yaml);
  const std::string& text = source->text();
  // yaml-cpp consumes a UTF-8 byte order mark without counting it in its marks.
  const std::size_t bom = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
#ifndef YAML_CPP_FROM_MEMORY
  std::istringstream input(text.substr(bom));
#endif
  try {
#ifdef YAML_CPP_FROM_MEMORY
    // The WebAssembly build's yaml-cpp (wasm/yaml-cpp-from-memory.patch) reads the text where it is,
    // and so the module carries no iostreams or locales.
    YAML::Parser parser(text.data() + bom, text.size() - bom);
#else
    YAML::Parser parser(input);
#endif
    TreeBuilder builder(*doc, limits, bom);
    parser.HandleNextDocument(builder);
    doc->setRoot(builder.root());
    if (const Node* root = builder.root(); root && root->expandedSize > limits.maxExpandedNodes) {
      const Node* alias = largestAlias(root);
      const Range at = alias ? alias->range : Range{root->range.start, root->range.start};
      doc->addProblem({RuleId::OL103,
                       "input limit: aliases expand this document to more than " + std::to_string(limits.maxExpandedNodes) +
                           " nodes (an alias bomb); AI Toolkit copies every alias out when it serialises the config, "
                           "so it would hang or run out of memory",
                       at, false});
    }
    try {
      DocumentProbe probe(bom);
      parser.HandleNextDocument(probe);
    } catch (const SecondDocument& second) {
      doc->addProblem({RuleId::OL106, "a second YAML document starts here; AI Toolkit reads exactly one document per file",
                       source->rangeOf(second.offset, second.offset), false});
    } catch (const YAML::Exception&) {
      // A broken second document: reported as the second document itself.
      doc->addProblem({RuleId::OL106, "more than one YAML document in this file; AI Toolkit reads exactly one",
                       source->rangeOf(text.size(), text.size()), false});
    }
  } catch (const SyntaxError& error) {
    doc->addProblem({RuleId::OL101, error.message, source->rangeOf(error.start, error.end), true});
  } catch (const LimitExceeded& limit) {
    doc->addProblem({RuleId::OL103, "input limit: " + limit.message, source->rangeOf(limit.offset, limit.offset), true});
  } catch (const YAML::DeepRecursion& deep) {
    const std::size_t at = deep.mark.pos < 0 ? 0 : static_cast<std::size_t>(deep.mark.pos) + bom;
    doc->addProblem({RuleId::OL103, "input limit: nesting is too deep", source->rangeOf(at, at), true});
  } catch (const YAML::Exception& error) {
    std::size_t at = error.mark.pos < 0 ? text.size() : static_cast<std::size_t>(error.mark.pos) + bom;
    if (auto quote = findRunawayQuote(text, at)) {
      doc->addProblem({RuleId::OL101,
                       "unclosed quote: the string that starts here is never closed on its line, so it swallows "
                       "the lines after it (YAML error at line " +
                           std::to_string(source->positionAt(at).line) + ": " + error.msg + ")",
                       source->rangeOf(*quote, lineEndAt(text, *quote)), true});
    } else {
      doc->addProblem({RuleId::OL101, "YAML syntax error: " + explainParserMessage(error.msg), source->rangeOf(at, at), true});
    }
  }
  return doc;
}

}  // namespace oomlint
