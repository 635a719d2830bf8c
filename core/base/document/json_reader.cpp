// Strict JSON → Document (RFC 8259, as Python's json.loads reads it: NaN/Infinity are accepted,
// comments and trailing commas are not). Iterative over nesting, so depth costs no native stack.
#include <cmath>
#include <cstdlib>
#include <limits>

#include "base/document/key_index.h"
#include "base/document/reader.h"
#include "base/text/ascii.h"
#include "base/text/source_text.h"

namespace oomlint {

namespace {

struct JsonError {
  std::string message;
  std::size_t offset;
};

class JsonParser {
 public:
  JsonParser(Document& doc, const ReadLimits& limits)
      : doc_(doc), text_(doc.source().text()), limits_(limits) {}

  const Node* parse() {
    if (text_.starts_with("\xEF\xBB\xBF")) {
      fail("the file starts with a UTF-8 byte order mark, which json.loads rejects (\"Unexpected UTF-8 BOM\"); "
           "save it as UTF-8 without a BOM");
    }
    skipSpace();
    const Node* root = parseValue();
    skipSpace();
    if (pos_ < text_.size()) fail("unexpected text after the end of the JSON document");
    return root;
  }

 private:
  struct Frame {
    Node* node;
    const Node* pendingKey = nullptr;
    KeyIndex keys;
  };

  [[noreturn]] void fail(std::string message) const { throw JsonError{std::move(message), pos_}; }

  void skipSpace() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        ++pos_;
      } else if (c == '/' && pos_ + 1 < text_.size() && (text_[pos_ + 1] == '/' || text_[pos_ + 1] == '*')) {
        fail("comments are not allowed in JSON (AI Toolkit reads .json and .jsonc files with json.loads)");
      } else {
        return;
      }
    }
  }

  Node& make() {
    if (doc_.nodeCount() >= limits_.maxNodes) {
      fail("input limit: the document has more than " + std::to_string(limits_.maxNodes) + " nodes");
    }
    return doc_.newNode();
  }

  void finish(Node& node, std::size_t start) { node.range = doc_.source().rangeOf(start, pos_); }

  // Parses one value; containers are handled with an explicit stack.
  const Node* parseValue() {
    std::vector<Frame> stack;
    while (true) {
      skipSpace();
      if (pos_ >= text_.size()) fail("unexpected end of input: a value was expected");
      Node* value = nullptr;
      const char c = text_[pos_];
      if (c == '{' || c == '[') {
        if (static_cast<int>(stack.size()) >= limits_.maxDepth) {
          fail("input limit: nesting is deeper than " + std::to_string(limits_.maxDepth) + " levels");
        }
        Node& node = make();
        node.kind = c == '{' ? NodeKind::Mapping : NodeKind::Sequence;
        node.flowStyle = true;
        node.range.start = doc_.source().positionAt(pos_);
        ++pos_;
        skipSpace();
        const char closer = c == '{' ? '}' : ']';
        if (pos_ < text_.size() && text_[pos_] == closer) {
          ++pos_;
          node.range.end = doc_.source().positionAt(pos_);
          value = &node;
        } else {
          attach(stack, node);
          stack.push_back(Frame{&node, nullptr, {}});
          if (c == '{') readKey(stack.back());
          continue;
        }
      } else {
        value = &parseScalar();
      }
      if (stack.empty()) return value;
      attach(stack, *value);
      // Close every container that ends here, then expect the next element.
      while (true) {
        skipSpace();
        Frame& top = stack.back();
        const bool isMap = top.node->kind == NodeKind::Mapping;
        if (pos_ >= text_.size()) fail(isMap ? "unexpected end of input: `}` expected" : "unexpected end of input: `]` expected");
        const char next = text_[pos_];
        if (next == ',') {
          ++pos_;
          skipSpace();
          if (pos_ < text_.size() && (text_[pos_] == '}' || text_[pos_] == ']')) {
            fail("trailing comma: JSON does not allow a `,` before `" + std::string(1, text_[pos_]) + "`");
          }
          if (isMap) readKey(top);
          break;
        }
        if (next == (isMap ? '}' : ']')) {
          ++pos_;
          Node* closed = top.node;
          closed->range.end = doc_.source().positionAt(pos_);
          stack.pop_back();
          if (stack.empty()) return closed;
          continue;
        }
        fail(isMap ? "expected `,` or `}` after a value in an object" : "expected `,` or `]` after a value in an array");
      }
    }
  }

  void attach(std::vector<Frame>& stack, Node& node) {
    if (stack.empty()) return;
    Frame& top = stack.back();
    if (top.node->kind == NodeKind::Sequence) {
      top.node->items.push_back(&node);
      return;
    }
    if (const Node* first = top.keys.firstWithSameText(*top.pendingKey)) {
      doc_.addProblem({RuleId::OL104,
                       "duplicate key `" + top.pendingKey->text + "`: json.loads keeps only this later value (first at line " +
                           std::to_string(first->range.start.line) + ")",
                       top.pendingKey->range, false});
    }
    top.node->entries.push_back({top.pendingKey, &node});
    top.pendingKey = nullptr;
  }

  void readKey(Frame& frame) {
    skipSpace();
    if (pos_ >= text_.size() || text_[pos_] != '"') fail("expected a string key in double quotes");
    Node& key = parseString();
    skipSpace();
    if (pos_ >= text_.size() || text_[pos_] != ':') fail("expected `:` after the key");
    ++pos_;
    frame.pendingKey = &key;
  }

  Node& parseScalar() {
    const char c = text_[pos_];
    if (c == '"') return parseString();
    const std::size_t start = pos_;
    Node& node = make();
    node.kind = NodeKind::Scalar;
    auto word = [&](std::string_view w) {
      if (text_.compare(pos_, w.size(), w) == 0) {
        pos_ += w.size();
        return true;
      }
      return false;
    };
    if (word("true") || word("false")) {
      node.type = ScalarType::Bool;
      node.boolValue = text_[start] == 't';
    } else if (word("null")) {
      node.type = ScalarType::Null;
    } else if (word("NaN")) {
      node.type = ScalarType::Float;
      node.floatValue = std::numeric_limits<double>::quiet_NaN();
    } else if (word("Infinity") || word("-Infinity")) {
      node.type = ScalarType::Float;
      node.floatValue = text_[start] == '-' ? -std::numeric_limits<double>::infinity()
                                            : std::numeric_limits<double>::infinity();
    } else if (c == '-' || isAsciiDigit(c)) {
      parseNumber(node);
    } else {
      fail(std::string("unexpected character `") + c + "`: a JSON value was expected");
    }
    node.text = text_.substr(start, pos_ - start);
    finish(node, start);
    return node;
  }

  void parseNumber(Node& node) {
    const std::size_t start = pos_;
    auto digits = [&] {
      const std::size_t from = pos_;
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
      return pos_ - from;
    };
    if (text_[pos_] == '-') ++pos_;
    if (pos_ < text_.size() && text_[pos_] == '0') {
      ++pos_;
    } else if (digits() == 0) {
      fail("invalid number");
    }
    bool isFloat = false;
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      isFloat = true;
      if (digits() == 0) fail("invalid number: digits expected after `.`");
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      isFloat = true;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (digits() == 0) fail("invalid number: digits expected in the exponent");
    }
    const std::string literal = text_.substr(start, pos_ - start);
    if (isFloat) {
      node.type = ScalarType::Float;
      node.floatValue = std::strtod(literal.c_str(), nullptr);
    } else {
      node.type = ScalarType::Int;
      errno = 0;
      node.intValue = std::strtoll(literal.c_str(), nullptr, 10);  // clamps on overflow
    }
  }

  unsigned hex4() {
    if (pos_ + 4 > text_.size()) fail("invalid \\u escape");
    unsigned value = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = text_[pos_++];
      const int digit = hexDigitValue(h);
      if (digit < 0) fail("invalid \\u escape");
      value = value << 4 | static_cast<unsigned>(digit);
    }
    return value;
  }

  Node& parseString() {
    const std::size_t start = pos_;
    Node& node = make();
    node.kind = NodeKind::Scalar;
    node.type = ScalarType::String;
    node.quoted = true;
    ++pos_;
    while (true) {
      if (pos_ >= text_.size()) {
        pos_ = start;
        fail("unterminated string: the closing `\"` is missing");
      }
      const char c = text_[pos_];
      if (c == '"') {
        ++pos_;
        break;
      }
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string (a raw line break or tab must be escaped)");
      if (c != '\\') {
        // Append the whole run up to the next quote, escape or control character at once.
        std::size_t run = pos_ + 1;
        while (run < text_.size() && text_[run] != '"' && text_[run] != '\\' && static_cast<unsigned char>(text_[run]) >= 0x20) ++run;
        node.text.append(text_, pos_, run - pos_);
        pos_ = run;
        continue;
      }
      ++pos_;
      if (pos_ >= text_.size()) fail("unterminated escape");
      const char e = text_[pos_++];
      switch (e) {
        case '"': node.text.push_back('"'); break;
        case '\\': node.text.push_back('\\'); break;
        case '/': node.text.push_back('/'); break;
        case 'b': node.text.push_back('\b'); break;
        case 'f': node.text.push_back('\f'); break;
        case 'n': node.text.push_back('\n'); break;
        case 'r': node.text.push_back('\r'); break;
        case 't': node.text.push_back('\t'); break;
        case 'u': {
          unsigned cp = hex4();
          if (cp >= 0xD800 && cp <= 0xDBFF && text_.compare(pos_, 2, "\\u") == 0) {
            pos_ += 2;
            const unsigned low = hex4();
            if (low >= 0xDC00 && low <= 0xDFFF) cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          }
          appendUtf8(node.text, cp);
          break;
        }
        default:
          --pos_;
          fail(std::string("invalid escape `\\") + e + "` in a string");
      }
    }
    finish(node, start);
    return node;
  }

  Document& doc_;
  const std::string& text_;
  const ReadLimits& limits_;
  std::size_t pos_ = 0;
};

}  // namespace

std::unique_ptr<Document> readJson(std::shared_ptr<const SourceText> source, const ReadLimits& limits) {
  auto doc = std::make_unique<Document>(source, DocumentFormat::Json);
  try {
    JsonParser parser(*doc, limits);
    doc->setRoot(parser.parse());
  } catch (const JsonError& error) {
    const bool limit = error.message.starts_with("input limit");
    doc->addProblem({limit ? RuleId::OL103 : RuleId::OL101, limit ? error.message : "JSON syntax error: " + error.message,
                     source->rangeOf(error.offset, error.offset), true});
  }
  return doc;
}

}  // namespace oomlint
