// TOML 1.0 → Document, enough of it for the trainers' config and dataset files (sd-scripts,
// musubi-tuner): tables, arrays of tables, dotted keys, the four string forms, integers (with _, 0x,
// 0o, 0b), floats (inf, nan), booleans, arrays and inline tables; dates are read as strings. Every key
// and value keeps its byte range. A table is a Mapping whose range is its header (`[train]`); the root
// table's range is empty at the start. Errors stop the read with the line:column of the offending byte.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <unordered_map>
#include <unordered_set>

#include "base/document/reader.h"
#include "base/text/ascii.h"
#include "base/text/source_text.h"

namespace oomlint {

namespace {

struct TomlError {
  std::string message;
  std::size_t offset;
};

// How a table came to be, which decides whether it may be opened again (TOML 1.0, "Table").
enum class TableOrigin { Implicit, Header, Dotted, Inline, ArrayItem };

bool isBareKeyChar(char c) {
  return isAsciiAlnum(c) || c == '_' || c == '-';
}

class TomlParser {
 public:
  TomlParser(Document& doc, const ReadLimits& limits) : doc_(doc), text_(doc.source().text()), limits_(limits) {}

  const Node* parse() {
    if (text_.starts_with("\xEF\xBB\xBF")) pos_ = 3;  // tomllib and toml accept a BOM before the first key
    Node& root = make();
    root.kind = NodeKind::Mapping;
    root.range = doc_.source().rangeOf(pos_, pos_);
    origin_[&root] = TableOrigin::Header;
    Node* current = &root;
    while (true) {
      skipBlank();
      if (pos_ >= text_.size()) break;
      if (text_[pos_] == '[') {
        current = parseHeader(root);
      } else {
        parseKeyValue(*current, TableOrigin::Dotted);
      }
      endOfLine();
    }
    return &root;
  }

 private:
  [[noreturn]] void fail(std::string message) const { throw TomlError{std::move(message), pos_}; }
  [[noreturn]] void failAt(std::size_t at, std::string message) const { throw TomlError{std::move(message), at}; }

  Node& make() {
    if (doc_.nodeCount() >= limits_.maxNodes) fail("input limit: the document has more than " + std::to_string(limits_.maxNodes) + " nodes");
    return doc_.newNode();
  }

  char peek(std::size_t ahead = 0) const { return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0'; }
  bool at(std::string_view s) const { return text_.compare(pos_, s.size(), s) == 0; }

  void skipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
  }
  void skipComment() {
    if (peek() != '#') return;
    while (pos_ < text_.size() && text_[pos_] != '\n') {
      const auto c = static_cast<unsigned char>(text_[pos_]);
      if ((c < 0x20 && c != '\t' && !(c == '\r' && peek(1) == '\n')) || c == 0x7F) fail("control character in a comment");
      ++pos_;
    }
  }
  bool skipNewline() {
    if (peek() == '\n') return ++pos_, true;
    if (peek() == '\r' && peek(1) == '\n') return pos_ += 2, true;
    return false;
  }
  // Blank lines, comments and indentation before a statement.
  void skipBlank() {
    while (true) {
      skipSpace();
      skipComment();
      if (!skipNewline()) return;
    }
  }
  // Inside an array: whitespace, comments and newlines.
  void skipArraySpace() { skipBlank(); }
  void endOfLine() {
    skipSpace();
    skipComment();
    if (pos_ < text_.size() && !skipNewline()) {
      fail(peek() == '\r' ? "a carriage return must be followed by a line feed" : std::string("expected the end of the line after a value, found `") + peek() + "`");
    }
  }

  // One key part: bare, "basic" or 'literal'.
  Node& parseSimpleKey() {
    const std::size_t start = pos_;
    if (peek() == '"' || peek() == '\'') {
      if (at("\"\"\"") || at("'''")) fail("a multi-line string cannot be a key");
      Node& key = parseString();
      return key;
    }
    while (pos_ < text_.size() && isBareKeyChar(text_[pos_])) ++pos_;
    if (pos_ == start) {
      fail(pos_ >= text_.size() || peek() == '\n' || peek() == '\r' ? "a key was expected before the end of the line"
                                                                      : std::string("unexpected character `") + peek() + "`: a key was expected");
    }
    Node& key = make();
    key.kind = NodeKind::Scalar;
    key.type = ScalarType::String;
    key.text = text_.substr(start, pos_ - start);
    key.range = doc_.source().rangeOf(start, pos_);
    return key;
  }

  // a.b."c" → its parts.
  std::vector<Node*> parseDottedKey() {
    std::vector<Node*> parts;
    while (true) {
      skipSpace();
      parts.push_back(&parseSimpleKey());
      if (static_cast<int>(parts.size()) > limits_.maxDepth) fail("input limit: a key has more than " + std::to_string(limits_.maxDepth) + " parts");
      skipSpace();
      if (peek() != '.') return parts;
      ++pos_;
    }
  }

  // The entry `key` of `table`, if any (an index per table, so a hostile file's many keys stay linear).
  MapEntry* lookup(Node& table, const std::string& key) {
    auto& index = keys_[&table];
    const auto it = index.find(key);
    return it == index.end() ? nullptr : &table.entries[it->second];
  }
  void add(Node& table, Node& key, Node& value) {
    keys_[&table].emplace(key.text, table.entries.size());
    table.entries.push_back({&key, &value});
  }

  Node& newTable(const Node& key, TableOrigin origin) {
    Node& table = make();
    table.kind = NodeKind::Mapping;
    table.range = key.range;
    origin_[&table] = origin;
    return table;
  }

  static std::string quotedKey(const Node& key) { return "`" + key.text + "`"; }

  // `[a.b]` or `[[a.b]]`: walks or creates the parents, then defines the table (or appends one).
  Node* parseHeader(Node& root) {
    const std::size_t start = pos_;
    const bool arrayOfTables = at("[[");
    pos_ += arrayOfTables ? 2 : 1;
    const std::vector<Node*> parts = parseDottedKey();
    if (arrayOfTables ? !at("]]") : peek() != ']') fail(arrayOfTables ? "expected `]]` to close the array-of-tables header" : "expected `]` to close the table header");
    pos_ += arrayOfTables ? 2 : 1;
    const Range headerRange = doc_.source().rangeOf(start, pos_);
    Node* table = &root;
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) table = descend(*table, *parts[i], start);
    Node& last = *parts.back();
    MapEntry* existing = lookup(*table, last.text);
    if (arrayOfTables) {
      Node* array = nullptr;
      if (existing == nullptr) {
        array = &make();
        array->kind = NodeKind::Sequence;
        array->range = headerRange;
        add(*table, last, *array);
      } else {
        array = const_cast<Node*>(existing->value);
        if (array->kind != NodeKind::Sequence || !arrayOfTablesNodes_.contains(array)) {
          failAt(start, "cannot append to " + quotedKey(last) + " with `[[…]]`: it was defined at line " +
                            std::to_string(existing->key->range.start.line) + " as something else");
        }
      }
      arrayOfTablesNodes_.insert(array);
      Node& item = newTable(last, TableOrigin::ArrayItem);
      item.range = headerRange;
      array->items.push_back(&item);
      return &item;
    }
    if (existing == nullptr) {
      Node& created = newTable(last, TableOrigin::Header);
      created.range = headerRange;
      add(*table, last, created);
      return &created;
    }
    Node* value = const_cast<Node*>(existing->value);
    if (value->kind == NodeKind::Mapping && origin_[value] == TableOrigin::Implicit) {
      origin_[value] = TableOrigin::Header;
      value->range = headerRange;
      return value;
    }
    failAt(start, "table " + quotedKey(last) + " is defined twice (first at line " + std::to_string(existing->key->range.start.line) + ")");
  }

  // The table `key` inside `table` while walking a header's or a dotted key's parents: created when
  // absent, the last element when it is an array of tables.
  Node* descend(Node& table, Node& key, std::size_t errorAt, TableOrigin createAs = TableOrigin::Implicit) {
    if (MapEntry* entry = lookup(table, key.text)) {
      Node* value = const_cast<Node*>(entry->value);
      if (value->kind == NodeKind::Sequence && arrayOfTablesNodes_.contains(value) && !value->items.empty()) {
        return const_cast<Node*>(value->items.back());
      }
      if (value->kind != NodeKind::Mapping || origin_[value] == TableOrigin::Inline) {
        failAt(errorAt, quotedKey(key) + " is already a value (line " + std::to_string(entry->key->range.start.line) + "), not a table");
      }
      if (createAs == TableOrigin::Dotted && origin_[value] != TableOrigin::Dotted) {
        failAt(errorAt, "dotted key extends table " + quotedKey(key) + " defined elsewhere (line " + std::to_string(entry->key->range.start.line) + ")");
      }
      return value;
    }
    Node& created = newTable(key, createAs);
    add(table, key, created);
    return &created;
  }

  // key = value, into `table` (dotted parts create tables of origin `dotted`).
  void parseKeyValue(Node& table, TableOrigin dotted, int depth = 0) {
    const std::size_t start = pos_;
    const std::vector<Node*> parts = parseDottedKey();
    if (peek() != '=') fail(pos_ >= text_.size() || peek() == '\n' || peek() == '\r' ? "expected `=` after the key " + quotedKey(*parts.back())
                                                                                          : std::string("expected `=` after the key, found `") + peek() + "`");
    ++pos_;
    skipSpace();
    Node* target = &table;
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) target = descend(*target, *parts[i], start, dotted);
    Node& key = *parts.back();
    if (const MapEntry* existing = lookup(*target, key.text)) {
      failAt(key.range.start.offset, "duplicate key " + quotedKey(key) + " (first at line " + std::to_string(existing->key->range.start.line) + ")");
    }
    Node& value = parseValue(depth);
    add(*target, key, value);
  }

  Node& parseValue(int depth) {
    if (depth > limits_.maxDepth) fail("input limit: nesting is deeper than " + std::to_string(limits_.maxDepth) + " levels");
    const char c = peek();
    if (c == '"' || c == '\'') return parseString();
    if (c == '[') return parseArray(depth);
    if (c == '{') return parseInlineTable(depth);
    return parseBareValue();
  }

  Node& parseArray(int depth) {
    const std::size_t start = pos_++;
    Node& array = make();
    array.kind = NodeKind::Sequence;
    array.flowStyle = true;
    while (true) {
      skipArraySpace();
      if (pos_ >= text_.size()) failAt(start, "unterminated array: the closing `]` is missing");
      if (peek() == ']') break;
      array.items.push_back(&parseValue(depth + 1));
      skipArraySpace();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == ']') break;
      if (pos_ >= text_.size()) failAt(start, "unterminated array: the closing `]` is missing");
      fail(std::string("expected `,` or `]` in an array, found `") + peek() + "`");
    }
    ++pos_;
    array.range = doc_.source().rangeOf(start, pos_);
    return array;
  }

  Node& parseInlineTable(int depth) {
    const std::size_t start = pos_++;
    Node& table = make();
    table.kind = NodeKind::Mapping;
    table.flowStyle = true;
    origin_[&table] = TableOrigin::Inline;
    skipSpace();
    if (peek() != '}') {
      while (true) {
        skipSpace();
        // Keys inside an inline table may be dotted; their tables are as closed as the inline table.
        parseKeyValue(table, TableOrigin::Dotted, depth + 1);
        skipSpace();
        if (peek() == ',') {
          ++pos_;
          skipSpace();
          if (peek() == '}') fail("trailing comma: TOML does not allow a `,` before `}` in an inline table");
          continue;
        }
        if (peek() == '}') break;
        if (peek() == '\n' || peek() == '\r' || pos_ >= text_.size()) failAt(start, "an inline table must close with `}` on the same line");
        fail(std::string("expected `,` or `}` in an inline table, found `") + peek() + "`");
      }
    }
    ++pos_;
    table.range = doc_.source().rangeOf(start, pos_);
    return table;
  }

  void escape(std::string& out) {
    const std::size_t start = pos_++;  // at the backslash
    const char e = peek();
    ++pos_;
    switch (e) {
      case 'b': out.push_back('\b'); return;
      case 't': out.push_back('\t'); return;
      case 'n': out.push_back('\n'); return;
      case 'f': out.push_back('\f'); return;
      case 'r': out.push_back('\r'); return;
      case '"': out.push_back('"'); return;
      case '\\': out.push_back('\\'); return;
      case 'u':
      case 'U': {
        const int digits = e == 'u' ? 4 : 8;
        unsigned long cp = 0;
        for (int i = 0; i < digits; ++i) {
          const char h = peek();
          const int v = hexDigitValue(h);
          if (v < 0) failAt(start, "invalid \\" + std::string(1, e) + " escape: " + std::to_string(digits) + " hex digits expected");
          cp = cp * 16 + static_cast<unsigned long>(v);
          ++pos_;
        }
        if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) failAt(start, "the escape is not a Unicode scalar value");
        appendUtf8(out, cp);
        return;
      }
      default:
        failAt(start, e == '\0' ? "unterminated escape" : std::string("invalid escape `\\") + e + "` in a string (Windows paths need '…' or \\\\)");
    }
  }

  // The four string forms; a Node of type String, quoted.
  Node& parseString() {
    const std::size_t start = pos_;
    const char quote = peek();
    const bool multiline = quote == '"' ? at("\"\"\"") : at("'''");
    Node& node = make();
    node.kind = NodeKind::Scalar;
    node.type = ScalarType::String;
    node.quoted = true;
    pos_ += multiline ? 3 : 1;
    if (multiline) skipNewline();  // a newline right after the opening delimiter is trimmed
    while (true) {
      if (pos_ >= text_.size()) failAt(start, std::string("unterminated string: the closing ") + (multiline ? std::string(3, quote) : std::string(1, quote)) + " is missing");
      const char c = text_[pos_];
      if (c == quote) {
        if (!multiline) {
          ++pos_;
          break;
        }
        if (at(std::string(3, quote))) {
          // Up to two quotes right before the closing delimiter belong to the string.
          std::size_t run = 3;
          while (run < 5 && peek(run) == quote) ++run;
          node.text.append(run - 3, quote);
          pos_ += run;
          break;
        }
        node.text.push_back(c);
        ++pos_;
        continue;
      }
      if (c == '\n' || (c == '\r' && peek(1) == '\n')) {
        if (!multiline) failAt(start, "a line break inside a single-line string: close it or use a \"\"\"multi-line\"\"\" string");
        const std::size_t width = c == '\r' ? 2 : 1;
        node.text.append(text_, pos_, width);
        pos_ += width;
        continue;
      }
      if (c == '\\' && quote == '"') {
        if (multiline) {
          // A line-ending backslash trims the line break and the whitespace after it.
          std::size_t after = pos_ + 1;
          while (after < text_.size() && (text_[after] == ' ' || text_[after] == '\t')) ++after;
          if (after < text_.size() && (text_[after] == '\n' || text_[after] == '\r')) {
            pos_ = after;
            while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r')) ++pos_;
            continue;
          }
        }
        escape(node.text);
        continue;
      }
      const auto u = static_cast<unsigned char>(c);
      if ((u < 0x20 && c != '\t') || u == 0x7F) fail("control character in a string (escape it)");
      node.text.push_back(c);
      ++pos_;
    }
    node.range = doc_.source().rangeOf(start, pos_);
    return node;
  }

  // Booleans, numbers and dates: the token up to a delimiter.
  Node& parseBareValue() {
    const std::size_t start = pos_;
    // A date-time may hold one space ("1979-05-27 07:32:00"): take it when a digit follows a date.
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == ' ' && pos_ - start == 10 && text_[start + 4] == '-' && isAsciiDigit(peek(1))) {
        ++pos_;
        continue;
      }
      if (c == ',' || c == ']' || c == '}' || c == ' ' || c == '\t' || c == '#' || c == '\n' || c == '\r') break;
      ++pos_;
    }
    const std::string token = text_.substr(start, pos_ - start);
    if (token.empty()) fail(pos_ >= text_.size() || peek() == '\n' || peek() == '\r' ? "a value was expected after `=`" : std::string("unexpected `") + peek() + "`: a value was expected");
    Node& node = make();
    node.kind = NodeKind::Scalar;
    node.text = token;
    node.range = doc_.source().rangeOf(start, pos_);
    if (token == "true" || token == "false") {
      node.type = ScalarType::Bool;
      node.boolValue = token == "true";
    } else if (!number(token, node)) {
      if (!isDate(token)) failAt(start, "`" + token + "` is not a TOML value (a string needs quotes: \"" + token + "\")");
      node.type = ScalarType::String;  // a date or time: kept as its text
    }
    return node;
  }

  static bool isDate(const std::string& t) {
    const bool dateLike = t.size() >= 10 && t[4] == '-' && t[7] == '-';
    const bool timeLike = t.size() >= 8 && t[2] == ':' && t[5] == ':';
    if (!dateLike && !timeLike) return false;
    for (char c : t) {
      if (!(isAsciiDigit(c) || c == '-' || c == ':' || c == 'T' || c == 't' || c == 'Z' || c == 'z' || c == '.' || c == '+' || c == ' ')) return false;
    }
    return true;
  }

  // Digits with single underscores between them, in `base`.
  static bool digitsOk(std::string_view s, int base) {
    if (s.empty() || s.front() == '_' || s.back() == '_') return false;
    for (std::size_t i = 0; i < s.size(); ++i) {
      const char c = s[i];
      if (c == '_') {
        if (s[i + 1] == '_') return false;
        continue;
      }
      const int v = hexDigitValue(c);
      if (v < 0 || v >= base) return false;
    }
    return true;
  }
  static std::string withoutUnderscores(std::string_view s) {
    std::string out;
    for (char c : s) {
      if (c != '_') out.push_back(c);
    }
    return out;
  }

  static bool number(const std::string& token, Node& node) {
    std::string_view t = token;
    if (t == "inf" || t == "+inf" || t == "-inf" || t == "nan" || t == "+nan" || t == "-nan") {
      node.type = ScalarType::Float;
      node.floatValue = t.ends_with("nan") ? std::numeric_limits<double>::quiet_NaN()
                                           : (t.front() == '-' ? -1 : 1) * std::numeric_limits<double>::infinity();
      return true;
    }
    for (auto [prefix, base] : {std::pair{"0x", 16}, std::pair{"0o", 8}, std::pair{"0b", 2}}) {
      if (t.starts_with(prefix)) {
        if (!digitsOk(t.substr(2), base)) return false;
        node.type = ScalarType::Int;
        node.intValue = static_cast<std::int64_t>(std::strtoull(withoutUnderscores(t.substr(2)).c_str(), nullptr, base));
        return true;
      }
    }
    std::string_view body = t;
    if (!body.empty() && (body.front() == '+' || body.front() == '-')) body.remove_prefix(1);
    const std::size_t dot = body.find('.');
    const std::size_t exp = body.find_first_of("eE");
    const std::string_view whole = body.substr(0, std::min(dot, exp));
    if (!digitsOk(whole, 10) || (whole.size() > 1 && whole.front() == '0')) return false;
    if (dot == std::string_view::npos && exp == std::string_view::npos) {
      node.type = ScalarType::Int;
      node.intValue = std::strtoll(withoutUnderscores(t).c_str(), nullptr, 10);  // clamps on overflow
      return true;
    }
    if (dot != std::string_view::npos && !digitsOk(body.substr(dot + 1, exp == std::string_view::npos ? std::string_view::npos : exp - dot - 1), 10)) return false;
    if (dot != std::string_view::npos && exp != std::string_view::npos && exp < dot) return false;
    if (exp != std::string_view::npos) {
      std::string_view e = body.substr(exp + 1);
      if (!e.empty() && (e.front() == '+' || e.front() == '-')) e.remove_prefix(1);
      if (!digitsOk(e, 10)) return false;
    }
    node.type = ScalarType::Float;
    node.floatValue = std::strtod(withoutUnderscores(t).c_str(), nullptr);
    return true;
  }

  Document& doc_;
  const std::string& text_;
  const ReadLimits& limits_;
  std::size_t pos_ = 0;
  std::unordered_map<const Node*, std::unordered_map<std::string, std::size_t>> keys_;
  std::unordered_map<const Node*, TableOrigin> origin_;
  std::unordered_set<const Node*> arrayOfTablesNodes_;
};

}  // namespace

std::unique_ptr<Document> readToml(std::shared_ptr<const SourceText> source, const ReadLimits& limits) {
  auto doc = std::make_unique<Document>(source, DocumentFormat::Toml);
  try {
    TomlParser parser(*doc, limits);
    doc->setRoot(parser.parse());
  } catch (const TomlError& error) {
    const bool limit = error.message.starts_with("input limit");
    doc->setRoot(nullptr);
    doc->addProblem({limit ? RuleId::OL103 : RuleId::OL101, limit ? error.message : "TOML syntax error: " + error.message,
                     source->rangeOf(error.offset, error.offset), true});
  }
  return doc;
}

}  // namespace oomlint
