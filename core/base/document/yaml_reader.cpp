// YAML → Document: PyYAML's grammar (what AI Toolkit's loader reads) as a recursive-descent parser
// over YamlScanner's tokens, composing nodes as it goes. Every node keeps the exact range of its
// text; anchors are shared, never copied, so an alias bomb stays small.
#include <algorithm>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

#include "base/document/key_index.h"
#include "base/document/reader.h"
#include "base/document/scalar_resolver.h"
#include "base/document/yaml_scanner.h"
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

bool isNullWord(std::string_view text) { return text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL"; }

// A node's `&anchor` and `!tag`, written before its content.
struct Properties {
  std::string anchor;
  std::string tag;  // resolved: `!!str` → tag:yaml.org,2002:str; `!` alone stays `!`
  bool any = false;
  std::size_t start = 0;
  std::size_t end = 0;
};

class YamlParser {
 public:
  YamlParser(Document& doc, const ReadLimits& limits, std::size_t bom)
      : doc_(doc), text_(doc.source().text()), limits_(limits), scanner_(text_, bom) {}

  // The first document's root (nullptr for a stream without one), then where a second one starts.
  const Node* parseFirstDocument();
  std::optional<std::size_t> secondDocument();

 private:
  // `found` where the grammar wants `expected` (PyYAML's words), said the way a user can act on.
  [[noreturn]] static void unexpected(const std::string& advice, std::string_view expected, const Token& found) {
    throw YamlSyntaxError{advice + " (PyYAML: expected " + std::string(expected) + ", but found " +
                              std::string(describe(found.kind)) + ")",
                          found.start, std::max(found.end, found.start)};
  }
  void processDirectives();
  Properties readProperties();
  std::string resolveTag(const Token& tag) const;

  const Node* parseNode(bool block, bool indentlessSequence);
  Node& parseScalar(const Properties& props);
  Node& emptyNode(std::size_t at);
  // The node after `mark` (a KEY, `:` or `-`), or an empty one just after it when an `enders` token comes next.
  const Node* nodeAfter(const Token& mark, std::initializer_list<YamlToken> enders, bool block);
  // After a key: the value after its `:`, or an empty one where no `:` follows.
  const Node* valueAfterKey(std::initializer_list<YamlToken> enders, bool block);
  // Before each flow entry but the first, its `,`: false where the collection closes instead (after a trailing comma too).
  bool flowContinues(const Node& node, bool first);
  Node& parseBlockSequence(Node& node);
  Node& parseIndentlessSequence(Node& node);
  Node& parseBlockMapping(Node& node);
  Node& parseFlowSequence(Node& node);
  Node& parseFlowMapping(Node& node);
  // A flow sequence's `key: value` item: a one-entry mapping.
  const Node* parseSinglePair();

  Node& make(std::size_t at);
  Node& openCollection(NodeKind kind, bool flow, const Properties& props, std::size_t start);
  void closeCollection(Node& node, std::size_t end);
  void addItem(Node& sequence, const Node* item);
  void addEntry(Node& mapping, KeyIndex& keys, const Node* key, const Node* value);
  void remember(const Properties& props, const Node& node);

  Document& doc_;
  const std::string& text_;
  const ReadLimits& limits_;
  YamlScanner scanner_;
  std::unordered_map<std::string, const Node*> anchors_;
  std::map<std::string, std::string, std::less<>> tagHandles_{{"!", "!"}, {"!!", "tag:yaml.org,2002:"}};
  int depth_ = 0;
};

const Node* YamlParser::parseFirstDocument() {
  const Node* root = nullptr;
  if (!scanner_.check(YamlToken::Directive) && !scanner_.check(YamlToken::DocumentStart) &&
      !scanner_.check(YamlToken::StreamEnd)) {
    root = parseNode(true, false);
  } else {
    if (scanner_.check(YamlToken::StreamEnd)) return nullptr;
    processDirectives();
    if (!scanner_.check(YamlToken::DocumentStart)) unexpected("a document starts with `---` after its directives", "'<document start>'", scanner_.peek());
    const Token start = scanner_.take();
    const YamlToken next = scanner_.peek().kind;
    root = next == YamlToken::Directive || next == YamlToken::DocumentStart || next == YamlToken::DocumentEnd ||
                   next == YamlToken::StreamEnd
               ? &emptyNode(start.end)
               : parseNode(true, false);
  }
  while (scanner_.check(YamlToken::DocumentEnd)) scanner_.take();
  return root;
}

std::optional<std::size_t> YamlParser::secondDocument() {
  const Token& next = scanner_.peek();
  if (next.kind == YamlToken::StreamEnd) return std::nullopt;
  if (next.kind == YamlToken::Directive || next.kind == YamlToken::DocumentStart) return next.start;
  unexpected("the document ends before this: check the indentation, or start a new document with `---`", "'<document start>'", next);
}

void YamlParser::processDirectives() {
  bool version = false;
  std::set<std::string> declared;
  while (scanner_.check(YamlToken::Directive)) {
    const Token directive = scanner_.take();
    if (directive.value == "YAML") {
      if (version) throw YamlSyntaxError{"a second %YAML directive (PyYAML: found duplicate YAML directive)", directive.start, directive.end};
      version = true;
      // The scanner has checked `major.minor`; PyYAML reads any 1.x (and warns of a minor other than 1).
      const std::string major = directive.handle.substr(0, directive.handle.find('.'));
      if (major.find_first_not_of('0') != major.size() - 1 || major.back() != '1') {
        throw YamlSyntaxError{"this document is not YAML 1.x (PyYAML: found incompatible YAML document)", directive.start,
                              directive.end};
      }
    } else if (directive.value == "TAG") {
      const std::string_view params = directive.handle;  // the scanner's "HANDLE PREFIX"
      const auto space = params.find(' ');
      const std::string handle(params.substr(0, space));
      const std::string_view prefix = params.substr(space + 1);
      if (!declared.insert(handle).second) {
        throw YamlSyntaxError{"the tag handle `" + handle + "` is declared twice (PyYAML: duplicate tag handle)", directive.start,
                              directive.end};
      }
      tagHandles_[handle] = std::string(prefix);
    }
  }
}

std::string YamlParser::resolveTag(const Token& tag) const {
  if (tag.handle.empty()) return tag.value;  // verbatim
  if (tag.handle == "!" && tag.value.empty()) return "!";
  const auto prefix = tagHandles_.find(tag.handle);
  if (prefix == tagHandles_.end()) {
    throw YamlSyntaxError{"the tag handle `" + tag.handle + "` is not declared by a %TAG directive (PyYAML: found undefined tag handle)",
                          tag.start, tag.end};
  }
  return prefix->second + tag.value;
}

Properties YamlParser::readProperties() {
  Properties props;
  for (int i = 0; i < 2; ++i) {
    if (props.anchor.empty() && scanner_.check(YamlToken::Anchor)) {
      const Token anchor = scanner_.take();
      props.anchor = anchor.value;
      props.start = props.any ? props.start : anchor.start;
      props.end = anchor.end;
      props.any = true;
    } else if (props.tag.empty() && scanner_.check(YamlToken::Tag)) {
      const Token tag = scanner_.take();
      props.tag = resolveTag(tag);
      props.start = props.any ? props.start : tag.start;
      props.end = tag.end;
      props.any = true;
    }
  }
  return props;
}

Node& YamlParser::make(std::size_t at) {
  if (doc_.nodeCount() >= limits_.maxNodes) {
    throw LimitExceeded{"the document has more than " + std::to_string(limits_.maxNodes) + " nodes", at};
  }
  return doc_.newNode();
}

void YamlParser::remember(const Properties& props, const Node& node) {
  if (props.anchor.empty()) return;
  // PyYAML refuses a second anchor of the same name rather than let it shadow the first.
  if (!anchors_.try_emplace(props.anchor, &node).second) {
    throw YamlSyntaxError{"the anchor `&" + props.anchor + "` is defined twice (PyYAML: found duplicate anchor)",
                          props.start, props.end};
  }
}

const Node* YamlParser::parseNode(bool block, bool indentlessSequence) {
  if (scanner_.check(YamlToken::Alias)) {
    const Token alias = scanner_.take();
    const auto target = anchors_.find(alias.value);
    if (target == anchors_.end()) {
      throw YamlSyntaxError{"the alias `*" + alias.value + "` names no anchor defined before it (PyYAML: found undefined alias)",
                            alias.start, alias.end};
    }
    Node& node = make(alias.start);
    node.kind = NodeKind::Alias;
    node.target = target->second;
    node.range = doc_.source().rangeOf(alias.start, alias.end);
    // A collection is anchored before its children are read; an alias inside it sees it unfinished.
    node.expandedSize = target->second->expandedSize;
    return &node;
  }
  const Properties props = readProperties();
  const Token& next = scanner_.peek();
  const std::size_t start = next.start;
  if (indentlessSequence && next.kind == YamlToken::BlockEntry) {
    return &parseIndentlessSequence(openCollection(NodeKind::Sequence, false, props, start));
  }
  switch (next.kind) {
    case YamlToken::Scalar: return &parseScalar(props);
    case YamlToken::FlowSequenceStart: return &parseFlowSequence(openCollection(NodeKind::Sequence, true, props, start));
    case YamlToken::FlowMappingStart: return &parseFlowMapping(openCollection(NodeKind::Mapping, true, props, start));
    case YamlToken::BlockSequenceStart:
      if (block) return &parseBlockSequence(openCollection(NodeKind::Sequence, false, props, start));
      break;
    case YamlToken::BlockMappingStart:
      if (block) return &parseBlockMapping(openCollection(NodeKind::Mapping, false, props, start));
      break;
    default: break;
  }
  if (props.any) {
    // Properties and no content: an empty scalar (a null, or "" under a tag).
    Node& node = make(props.start);
    node.range = doc_.source().rangeOf(props.start, props.end);
    if (!props.tag.empty() && props.tag != "!") {
      node.kind = NodeKind::Scalar;
      node.quoted = true;
      resolveScalar(node);
      applyExplicitTag(node, props.tag);
    }
    remember(props, node);
    return &node;
  }
  unexpected("a value is expected here", "the node content", next);
}

Node& YamlParser::parseScalar(const Properties& props) {
  Token token = scanner_.take();
  const bool plain = token.style == ScalarStyle::Plain;
  const std::size_t start = props.any ? props.start : token.start;
  Node& node = make(start);
  node.range = doc_.source().rangeOf(token.start, token.end);
  // Only an untagged plain scalar (or one under the non-specific `!`) is typed from its text.
  const bool implicit = (plain && props.tag.empty()) || props.tag == "!";
  if (implicit && plain && isNullWord(token.value)) {
    node.kind = NodeKind::Null;
  } else {
    node.kind = NodeKind::Scalar;
    node.text = std::move(token.value);
    node.quoted = !implicit;
    resolveScalar(node);
    if (!implicit) applyExplicitTag(node, props.tag);
  }
  remember(props, node);
  return node;
}

Node& YamlParser::emptyNode(std::size_t at) {
  Node& node = make(at);
  node.range = doc_.source().rangeOf(at, at);
  return node;
}

Node& YamlParser::openCollection(NodeKind kind, bool flow, const Properties& props, std::size_t start) {
  if (depth_ >= limits_.maxDepth) {
    throw LimitExceeded{"nesting is deeper than " + std::to_string(limits_.maxDepth) + " levels", start};
  }
  ++depth_;
  Node& node = make(start);
  node.kind = kind;
  node.flowStyle = flow;
  node.range = doc_.source().rangeOf(start, start);
  remember(props, node);
  return node;
}

void YamlParser::closeCollection(Node& node, std::size_t end) {
  --depth_;
  node.range.end = doc_.source().positionAt(std::max(end, node.range.end.offset));
  std::uint64_t size = 1;
  for (const auto& entry : node.entries) size = saturatingAdd(size, saturatingAdd(entry.key->expandedSize, entry.value->expandedSize));
  for (const Node* item : node.items) size = saturatingAdd(size, item->expandedSize);
  node.expandedSize = size;
}

void YamlParser::addItem(Node& sequence, const Node* item) {
  sequence.items.push_back(item);
  if (item->range.end.offset > sequence.range.end.offset) sequence.range.end = item->range.end;
}

void YamlParser::addEntry(Node& mapping, KeyIndex& keys, const Node* key, const Node* value) {
  if (key->kind == NodeKind::Scalar && !key->isMergeKey()) {
    if (const Node* first = keys.firstWithSameText(*key)) {
      doc_.addProblem({RuleId::OL104,
                       "duplicate key `" + key->text + "`: the loader keeps only this later value (first at line " +
                           std::to_string(first->range.start.line) + ")",
                       key->range, false});
    }
  }
  if (key->isMergeKey()) mapping.hasMergeKey = true;
  mapping.entries.push_back({key, value});
  for (const Node* n : {key, value}) {
    if (n->range.end.offset > mapping.range.end.offset) mapping.range.end = n->range.end;
  }
}

const Node* YamlParser::nodeAfter(const Token& mark, std::initializer_list<YamlToken> enders, bool block) {
  const YamlToken next = scanner_.peek().kind;
  if (std::find(enders.begin(), enders.end(), next) != enders.end()) return &emptyNode(mark.end);
  return parseNode(block, block);
}

const Node* YamlParser::valueAfterKey(std::initializer_list<YamlToken> enders, bool block) {
  if (!scanner_.check(YamlToken::Value)) return &emptyNode(scanner_.peek().start);
  const Token colon = scanner_.take();
  return nodeAfter(colon, enders, block);
}

bool YamlParser::flowContinues(const Node& node, bool first) {
  const bool list = node.kind == NodeKind::Sequence;
  const YamlToken close = list ? YamlToken::FlowSequenceEnd : YamlToken::FlowMappingEnd;
  if (scanner_.check(close)) return false;
  if (first) return true;
  if (!scanner_.check(YamlToken::FlowEntry)) {
    unexpected(std::string(list ? "the `[` list" : "the `{` mapping") + " opened on line " + std::to_string(node.range.start.line) +
                   " continues with `,` or ends with " + (list ? "`]`" : "`}`"),
               list ? "',' or ']'" : "',' or '}'", scanner_.peek());
  }
  scanner_.take();
  return !scanner_.check(close);  // a trailing comma
}

Node& YamlParser::parseBlockSequence(Node& node) {
  scanner_.take();  // BLOCK-SEQUENCE-START
  while (scanner_.check(YamlToken::BlockEntry)) {
    const Token entry = scanner_.take();
    // An item's own collection is a block node, never an indentless list: `- - x` nests through BLOCK-SEQUENCE-START.
    const YamlToken next = scanner_.peek().kind;
    addItem(node, next == YamlToken::BlockEntry || next == YamlToken::BlockEnd ? &emptyNode(entry.end) : parseNode(true, false));
  }
  if (!scanner_.check(YamlToken::BlockEnd)) {
    unexpected("this line does not continue the `- ` list above it: check its indentation", "<block end>", scanner_.peek());
  }
  scanner_.take();
  closeCollection(node, node.range.end.offset);
  return node;
}

Node& YamlParser::parseIndentlessSequence(Node& node) {
  while (scanner_.check(YamlToken::BlockEntry)) {
    const Token entry = scanner_.take();
    const YamlToken next = scanner_.peek().kind;
    const bool empty = next == YamlToken::BlockEntry || next == YamlToken::Key || next == YamlToken::Value ||
                       next == YamlToken::BlockEnd;
    addItem(node, empty ? &emptyNode(entry.end) : parseNode(true, false));
  }
  closeCollection(node, node.range.end.offset);
  return node;
}

Node& YamlParser::parseBlockMapping(Node& node) {
  scanner_.take();  // BLOCK-MAPPING-START
  static constexpr std::initializer_list<YamlToken> kEnders = {YamlToken::Key, YamlToken::Value, YamlToken::BlockEnd};
  KeyIndex keys;
  while (scanner_.check(YamlToken::Key)) {
    const Token mark = scanner_.take();
    const Node* key = nodeAfter(mark, kEnders, true);
    addEntry(node, keys, key, valueAfterKey(kEnders, true));
  }
  if (!scanner_.check(YamlToken::BlockEnd)) {
    unexpected("this line does not continue the mapping above it: check its indentation", "<block end>", scanner_.peek());
  }
  scanner_.take();
  closeCollection(node, node.range.end.offset);
  return node;
}

const Node* YamlParser::parseSinglePair() {
  const Token mark = scanner_.take();  // KEY
  Node& pair = openCollection(NodeKind::Mapping, true, Properties{}, mark.start);
  const Node* key = nodeAfter(mark, {YamlToken::Value, YamlToken::FlowEntry, YamlToken::FlowSequenceEnd}, false);
  KeyIndex keys;
  addEntry(pair, keys, key, valueAfterKey({YamlToken::FlowEntry, YamlToken::FlowSequenceEnd}, false));
  closeCollection(pair, pair.range.end.offset);
  return &pair;
}

Node& YamlParser::parseFlowSequence(Node& node) {
  scanner_.take();  // [
  for (bool first = true; flowContinues(node, first); first = false) {
    addItem(node, scanner_.check(YamlToken::Key) ? parseSinglePair() : parseNode(false, false));
  }
  closeCollection(node, scanner_.take().end);
  return node;
}

Node& YamlParser::parseFlowMapping(Node& node) {
  scanner_.take();  // {
  KeyIndex keys;
  for (bool first = true; flowContinues(node, first); first = false) {
    if (scanner_.check(YamlToken::Key)) {
      const Token mark = scanner_.take();
      const Node* key = nodeAfter(mark, {YamlToken::Value, YamlToken::FlowEntry, YamlToken::FlowMappingEnd}, false);
      addEntry(node, keys, key, valueAfterKey({YamlToken::FlowEntry, YamlToken::FlowMappingEnd}, false));
    } else {
      // A key with no KEY token (`{a, b: 1}`'s `a`, or one that spans lines) has no value.
      const Node* key = parseNode(false, false);
      addEntry(node, keys, key, &emptyNode(scanner_.peek().start));
    }
  }
  closeCollection(node, scanner_.take().end);
  return node;
}

}  // namespace

std::unique_ptr<Document> readYaml(std::shared_ptr<const SourceText> source, const ReadLimits& limits) {
  auto doc = std::make_unique<Document>(source, DocumentFormat::Yaml);
  const std::string& text = source->text();
  const std::size_t bom = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  try {
    YamlParser parser(*doc, limits, bom);
    const Node* root = parser.parseFirstDocument();
    doc->setRoot(root);
    if (root != nullptr && root->expandedSize > limits.maxExpandedNodes) {
      const Node* alias = largestAlias(root);
      const Range at = alias ? alias->range : Range{root->range.start, root->range.start};
      doc->addProblem({RuleId::OL103,
                       "input limit: aliases expand this document to more than " + std::to_string(limits.maxExpandedNodes) +
                           " nodes (an alias bomb); AI Toolkit copies every alias out when it serialises the config, "
                           "so it would hang or run out of memory",
                       at, false});
    }
    // Only the `---` (or directive) that starts a second document is scanned, never what follows it.
    if (const auto second = parser.secondDocument()) {
      doc->addProblem({RuleId::OL106, "a second YAML document starts here; AI Toolkit reads exactly one document per file",
                       source->rangeOf(*second, *second), false});
    }
  } catch (const LimitExceeded& limit) {
    doc->setRoot(nullptr);
    doc->addProblem({RuleId::OL103, "input limit: " + limit.message, source->rangeOf(limit.offset, limit.offset), true});
  } catch (const YamlSyntaxError& error) {
    doc->setRoot(nullptr);
    auto quote = findRunawayQuote(text, error.start);
    if (quote && !error.message.starts_with("unclosed quote")) {
      // PyYAML's own words for where it stopped, from the message's "(PyYAML: …)".
      const auto words = error.message.rfind("(PyYAML: ");
      const std::string stopped = words == std::string::npos ? error.message : error.message.substr(words + 9, error.message.size() - words - 10);
      doc->addProblem({RuleId::OL101,
                       "unclosed quote: the string that starts here is never closed on its line, so it swallows "
                       "the lines after it (PyYAML stops at line " +
                           std::to_string(source->positionAt(error.start).line) + ": " + stopped + ")",
                       source->rangeOf(*quote, lineEndAt(text, *quote)), true});
    } else {
      doc->addProblem({RuleId::OL101, error.message, source->rangeOf(error.start, error.end), true});
    }
  }
  return doc;
}

}  // namespace oomlint
