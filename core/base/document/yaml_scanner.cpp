// YamlScanner's tokens: indentation, simple keys, flow and block indicators, directives, anchors and
// tags (its scalars: yaml_scalars.cpp).
#include "base/document/yaml_scanner.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "base/text/ascii.h"
#include "base/text/source_text.h"
#include "base/text/decimal_text.h"

namespace oomlint {

namespace {

bool isWordChar(char c) {
  return isAsciiAlnum(c) || c == '-' || c == '_';
}
constexpr std::size_t kSimpleKeyLimit = 1024;

// The first character PyYAML's reader refuses (control characters, C1 controls but NEL, U+FFFE/FFFF).
std::size_t firstUnacceptable(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    // Eight bytes of printable ASCII at once (no byte below 0x20, none from 0x7F on): most words of a config.
    constexpr std::uint64_t kOnes = 0x0101010101010101ull, kHigh = 0x8080808080808080ull;
    for (std::uint64_t w = 0; i + 8 <= text.size(); i += 8) {
      std::memcpy(&w, text.data() + i, 8);
      if ((((w - 0x20 * kOnes) & ~w) | (w + kOnes) | w) & kHigh) break;
    }
    if (i >= text.size()) break;
    const auto b = static_cast<unsigned char>(text[i]);
    if (b >= 0x20 && b < 0x7F) continue;  // printable ASCII, nearly every byte
    if ((b < 0x20 && b != '\t' && b != '\n' && b != '\r') || b == 0x7F) return i;
    if (b == 0xC2 && i + 1 < text.size()) {
      const auto next = static_cast<unsigned char>(text[i + 1]);
      if (next >= 0x80 && next <= 0x9F && next != 0x85) return i;
    }
    if (b == 0xEF && i + 2 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0xBF &&
        (static_cast<unsigned char>(text[i + 2]) == 0xBE || static_cast<unsigned char>(text[i + 2]) == 0xBF)) {
      return i;
    }
  }
  return std::string_view::npos;
}

}  // namespace

Token tokenAt(YamlToken kind, std::size_t start, std::size_t end, ScalarStyle style) {
  Token token;
  token.kind = kind;
  token.style = style;
  token.start = start;
  token.end = end;
  return token;
}

// How a character reads in a message: printable ASCII as itself, the rest by name or code.
std::string shownAt(std::string_view text, std::size_t at) {
  if (at >= text.size()) return "the end of the file";
  const char c = text[at];
  if (c == '\t') return "a tab";
  if (c == '\n' || c == '\r') return "a line break";
  if (c == ' ') return "a space";
  if (static_cast<unsigned char>(c) >= 0x80) {
    std::size_t n = 1;
    while (at + n < text.size() && (static_cast<unsigned char>(text[at + n]) & 0xC0) == 0x80) ++n;
    return "`" + std::string(text.substr(at, n)) + "`";
  }
  return "`" + std::string(1, c) + "`";
}

std::string_view describe(YamlToken kind) {
  switch (kind) {
    case YamlToken::StreamEnd: return "the end of the file";
    case YamlToken::Directive: return "a `%` directive";
    case YamlToken::DocumentStart: return "`---`";
    case YamlToken::DocumentEnd: return "`...`";
    case YamlToken::BlockSequenceStart: return "a `- ` list";
    case YamlToken::BlockMappingStart: return "a mapping";
    case YamlToken::BlockEnd: return "a shallower line";
    case YamlToken::FlowSequenceStart: return "`[`";
    case YamlToken::FlowMappingStart: return "`{`";
    case YamlToken::FlowSequenceEnd: return "`]`";
    case YamlToken::FlowMappingEnd: return "`}`";
    case YamlToken::BlockEntry: return "a `- ` item";
    case YamlToken::FlowEntry: return "`,`";
    case YamlToken::Key: return "a key";
    case YamlToken::Value: return "`:`";
    case YamlToken::Alias: return "an alias";
    case YamlToken::Anchor: return "an anchor";
    case YamlToken::Tag: return "a tag";
    case YamlToken::Scalar: return "a value";
  }
  return "a token";
}

YamlScanner::YamlScanner(std::string_view text, std::size_t skip) : text_(text), pos_(skip), lineStart_(skip) {
  simpleKeys_.resize(1);
  if (const std::size_t bad = firstUnacceptable(text); bad != std::string_view::npos) {
    // The byte is the character's, or the lead byte of a C1 control's or U+FFFE/FFFF's UTF-8.
    const auto byte = static_cast<unsigned char>(text[bad]);
    fail("a control character (byte 0x" + hexText(byte, 2, /*upper=*/true) +
             ") is not allowed in YAML text: save the file without it (PyYAML: special characters are not allowed)",
         bad, bad + 1);
  }
}

// PyYAML's line breaks: `\r\n`, `\r`, `\n`, and NEL, LS and PS (U+0085, U+2028, U+2029).
std::size_t YamlScanner::breakLengthAt(std::size_t ahead) const {
  const char c = at(ahead);
  if (c == '\n' || c == '\r') return 1;
  if (c == '\xC2' && at(ahead + 1) == '\x85') return 2;
  if (c == '\xE2' && at(ahead + 1) == '\x80' && (at(ahead + 2) == '\xA8' || at(ahead + 2) == '\xA9')) return 3;
  return 0;
}

void YamlScanner::forward(std::size_t bytes) {
  for (const std::size_t stop = std::min(pos_ + bytes, text_.size()); pos_ < stop; ++pos_) {
    const char c = text_[pos_];
    if (c >= 0x20 && c < 0x7F) {  // printable ASCII, nearly every byte: no break, one column
      ++column_;
      continue;
    }
    if (const std::size_t length = c == '\r' && at(1) == '\n' ? 0 : breakLengthAt(0)) {
      ++line_;
      lineStart_ = pos_ + length;
      column_ = 0;
    } else if (c != '\r' && (static_cast<unsigned char>(c) & 0xC0) != 0x80) {
      ++column_;
    }
  }
}

// Printable ASCII is never a break and is one column each: a run of it moves the position and the column at once.
void YamlScanner::skipPrintableAscii() {
  std::size_t end = pos_;
  while (end < text_.size() && text_[end] >= 0x20 && text_[end] < 0x7F) ++end;
  column_ += static_cast<long>(end - pos_);
  pos_ = end;
}

// Spaces are one column each and never a break: the indentation in one step.
void YamlScanner::skipSpaces() {
  const std::size_t end = std::min(text_.find_first_not_of(' ', pos_), text_.size());
  column_ += static_cast<long>(end - pos_);
  pos_ = end;
}

// PyYAML reads `\r\n`, `\r`, `\n` and NEL alike as one `\n`, and keeps LS and PS as they are.
bool YamlScanner::scanLineBreak(std::string* into) {
  const std::size_t length = at() == '\r' && at(1) == '\n' ? 2 : breakLengthAt(0);
  if (length == 0) return false;
  if (into != nullptr) {
    if (length == 3) {
      into->append(text_.substr(pos_, 3));
    } else {
      into->push_back('\n');
    }
  }
  forward(length);
  return true;
}

void YamlScanner::fail(std::string message, std::size_t start, std::size_t end) const {
  throw YamlSyntaxError{std::move(message), start, end};
}

const Token& YamlScanner::peek() {
  if (!frontSettled_) {
    while (needMoreTokens()) fetchMoreTokens();
    frontSettled_ = true;
  }
  return tokens_.front();
}

Token TokenQueue::take() {
  Token token = std::move(tokens_[head_++]);
  if (empty()) {
    tokens_.clear();  // keeps its capacity
    head_ = 0;
  } else if (head_ >= 64 && 2 * head_ >= tokens_.size()) {
    // A queue that never empties (PyYAML's never does for long) does not grow without bound.
    tokens_.erase(tokens_.begin(), tokens_.begin() + static_cast<std::ptrdiff_t>(head_));
    head_ = 0;
  }
  return token;
}

Token YamlScanner::take() {
  peek();
  ++tokensTaken_;
  frontSettled_ = false;
  return tokens_.take();
}

bool YamlScanner::needMoreTokens() {
  if (done_) return false;
  if (tokens_.empty()) return true;
  // The first queued token may still become a key: wait for its `:` (or for the key to go stale).
  staleSimpleKeys();
  return nextSimpleKeyToken() == tokensTaken_;
}

void YamlScanner::push(YamlToken kind, std::size_t start, std::size_t end) {
  tokens_.push(tokenAt(kind, start, end));
}

void YamlScanner::fetchMoreTokens() {
  scanToNextToken();
  staleSimpleKeys();
  unwindIndent(column_);
  const char c = at();
  if (pos_ >= text_.size()) return fetchStreamEnd();
  if (c == '%' && column_ == 0) return fetchDirective();
  if (c == '-' && documentIndicator('-')) return fetchDocumentIndicator(YamlToken::DocumentStart);
  if (c == '.' && documentIndicator('.')) return fetchDocumentIndicator(YamlToken::DocumentEnd);
  switch (c) {
    case '[': return fetchFlowCollectionStart(YamlToken::FlowSequenceStart);
    case '{': return fetchFlowCollectionStart(YamlToken::FlowMappingStart);
    case ']': return fetchFlowCollectionEnd(YamlToken::FlowSequenceEnd);
    case '}': return fetchFlowCollectionEnd(YamlToken::FlowMappingEnd);
    case ',': return fetchFlowEntry();
    default: break;
  }
  if (c == '-' && blankOrEndAt(1)) return fetchBlockEntry();
  if (c == '?' && (flowLevel_ > 0 || blankOrEndAt(1))) return fetchKey();
  if (c == ':' && (flowLevel_ > 0 || blankOrEndAt(1))) return fetchValue();
  if (c == '*') return fetchAnchor(YamlToken::Alias);
  if (c == '&') return fetchAnchor(YamlToken::Anchor);
  if (c == '!') return fetchTag();
  if (c == '|' && flowLevel_ == 0) return fetchBlockScalar(ScalarStyle::Literal);
  if (c == '>' && flowLevel_ == 0) return fetchBlockScalar(ScalarStyle::Folded);
  if (c == '\'') return fetchQuoted(ScalarStyle::SingleQuoted);
  if (c == '"') return fetchQuoted(ScalarStyle::DoubleQuoted);
  if (plainCanStart()) return fetchPlain();
  if (c == '\t') {
    const bool indentation = text_.substr(lineStart_, pos_ - lineStart_).find_first_not_of(" \t") == std::string_view::npos;
    failHere(indentation ? "a tab is used for indentation: YAML allows only spaces (PyYAML: found character '\\t' that "
                           "cannot start any token)"
                         : "a tab separates values here: YAML allows only spaces between them (PyYAML: found "
                           "character '\\t' that cannot start any token)");
  }
  fail(shownAt(text_, pos_) + " cannot start a value: quote the value (PyYAML: found character that cannot start any token)",
       pos_, pos_ + 1);
}

void YamlScanner::scanToNextToken() {
  for (;;) {
    skipSpaces();
    if (at() == '#') {
      skipPrintableAscii();  // most of a comment, in one step
      while (pos_ < text_.size() && !breakAt()) forward();
    }
    if (!scanLineBreak()) return;
    if (flowLevel_ == 0) allowSimpleKey_ = true;
  }
}

void YamlScanner::unwindIndent(long column) {
  if (flowLevel_ > 0) return;
  while (indent_ > column) {
    indent_ = indents_.back();
    indents_.pop_back();
    push(YamlToken::BlockEnd, pos_, pos_);
  }
}

bool YamlScanner::addIndent(long column) {
  if (indent_ >= column) return false;
  indents_.push_back(indent_);
  indent_ = column;
  return true;
}

YamlScanner::SimpleKey& YamlScanner::keyAtLevel() {
  if (simpleKeys_.size() <= static_cast<std::size_t>(flowLevel_)) simpleKeys_.resize(static_cast<std::size_t>(flowLevel_) + 1);
  return simpleKeys_[static_cast<std::size_t>(flowLevel_)];
}

// `batch_size:4` is one plain word to YAML: where a plain scalar holds a key-like word glued to its value by a
// colon, that is the mistake to point at (a URL's or a time's colons are not).
void YamlScanner::failOnColonWithoutSpace(const Token& scalar, std::string_view pyyaml) const {
  if (scalar.kind != YamlToken::Scalar || scalar.style != ScalarStyle::Plain) return;
  const std::string_view written = text_.substr(scalar.start, scalar.end - scalar.start);
  const auto keyChar = [](char c) { return isAsciiAlnum(c) || c == '_' || c == '-' || c == '.'; };
  for (std::size_t begin = 0; begin < written.size();) {
    std::size_t end = written.find_first_of(" \t\r\n", begin);
    if (end == std::string_view::npos) end = written.size();
    const std::string_view word = written.substr(begin, end - begin);
    const std::size_t colon = word.find(':');
    const bool keyLike = colon != std::string_view::npos && colon > 0 && colon + 1 < word.size() && word.size() <= 40 &&
                         (isAsciiAlpha(word[0]) || word[0] == '_') &&
                         std::all_of(word.begin(), word.begin() + static_cast<long>(colon), keyChar) &&
                         word[colon + 1] != '/' && word[colon + 1] != ':';
    if (keyLike) {
      fail("`" + std::string(word) + "` needs a space after its colon (`" + std::string(word.substr(0, colon)) + ": " +
               std::string(word.substr(colon + 1)) + "`): without one YAML reads it as one word (PyYAML: " + std::string(pyyaml) +
               ")",
           scalar.start + begin, scalar.start + end);
    }
    begin = written.find_first_not_of(" \t\r\n", end);
    if (begin == std::string_view::npos) break;
  }
}

void YamlScanner::failMissingColon(const SimpleKey& key) const {
  const std::size_t index = key.tokenNumber - tokensTaken_;
  if (index < tokens_.size() && tokens_[index].kind == YamlToken::Scalar) {
    const Token& word = tokens_[index];
    failOnColonWithoutSpace(word, "could not find expected ':'");
    const std::size_t length = word.end - word.start;
    const std::string what = length <= 40 ? "`" + std::string(text_.substr(word.start, length)) + "`" : "this key";
    fail(what + " is not a `key: value` entry: every line of a mapping needs a colon after its key "
                "(PyYAML: could not find expected ':')",
         word.start, word.end);
  }
  fail("this line is not a `key: value` entry: every line of a mapping needs a colon after its key "
       "(PyYAML: could not find expected ':')",
       key.offset, key.offset);
}

// A possible key stops being one at the end of its line or 1024 characters on.
void YamlScanner::staleSimpleKeys() {
  for (SimpleKey& key : simpleKeys_) {
    if (!key.possible || (key.line == line_ && pos_ - key.offset <= kSimpleKeyLimit)) continue;
    if (key.required) failMissingColon(key);
    key.possible = false;
  }
}

void YamlScanner::saveSimpleKey() {
  const bool required = flowLevel_ == 0 && indent_ == column_;
  if (!allowSimpleKey_) return;
  removeSimpleKey();
  keyAtLevel() = SimpleKey{.possible = true,
                           .required = required,
                           .tokenNumber = tokensTaken_ + tokens_.size(),
                           .offset = pos_,
                           .line = line_,
                           .column = column_};
}

void YamlScanner::removeSimpleKey() {
  SimpleKey& key = keyAtLevel();
  if (key.possible && key.required) failMissingColon(key);
  key.possible = false;
}

std::size_t YamlScanner::nextSimpleKeyToken() const {
  std::size_t least = static_cast<std::size_t>(-1);
  for (const SimpleKey& key : simpleKeys_) {
    if (key.possible) least = std::min(least, key.tokenNumber);
  }
  return least;
}

bool YamlScanner::documentIndicator(char c) const {
  return column_ == 0 && at() == c && at(1) == c && at(2) == c && blankOrEndAt(3);
}

void YamlScanner::fetchStreamEnd() {
  unwindIndent(-1);
  removeSimpleKey();
  allowSimpleKey_ = false;
  push(YamlToken::StreamEnd, pos_, pos_);
  done_ = true;
}

// `%YAML 1.1` (the value: the version) or `%TAG !e! tag:example.com,2000:` (the value: handle and prefix);
// any other directive's line is skipped. Only a comment may follow on the line.
void YamlScanner::fetchDirective() {
  unwindIndent(-1);
  removeSimpleKey();
  allowSimpleKey_ = false;
  const std::size_t start = pos_;
  forward();
  std::size_t length = 0;
  while (isWordChar(at(length))) ++length;
  if (length == 0 || (at(length) != '\0' && at(length) != ' ' && !breakAt(length))) {
    fail("a `%` directive is a name, then its values (PyYAML: expected alphabetic or numeric character, but found " +
             shownAt(text_, pos_ + length) + ")",
         start, pos_ + length);
  }
  Token token = tokenAt(YamlToken::Directive, start, pos_ + length);
  token.value = std::string(text_.substr(pos_, length));
  forward(length);
  auto expectEnd = [&](std::string_view what) {
    if (at() != '\0' && at() != ' ' && !breakAt()) {
      failHere(std::string(what) + " (PyYAML: expected a digit or ' ', but found " + shownAt(text_, pos_) + ")");
    }
  };
  if (token.value == "YAML") {
    skipSpaces();
    auto digits = [&] {
      std::size_t n = 0;
      while (at(n) >= '0' && at(n) <= '9') ++n;
      if (n == 0) failHere("a %YAML directive takes a version such as 1.1 (PyYAML: expected a digit, but found " + shownAt(text_, pos_) + ")");
      token.handle.append(text_.substr(pos_, n));
      forward(n);
    };
    digits();
    if (at() != '.') failHere("a %YAML directive takes a version such as 1.1 (PyYAML: expected a digit or '.', but found " + shownAt(text_, pos_) + ")");
    token.handle.push_back('.');
    forward();
    digits();
    expectEnd("a %YAML directive takes a version such as 1.1");
  } else if (token.value == "TAG") {
    skipSpaces();
    if (at() != '!') failHere("a %TAG directive's handle starts with `!` (PyYAML: expected '!', but found " + shownAt(text_, pos_) + ")");
    std::size_t handle = 1;
    while (isWordChar(at(handle))) ++handle;
    if (handle > 1 || at(handle) == '!') {
      if (at(handle) != '!') failHere("a %TAG directive's handle is `!`, `!!` or `!name!` (PyYAML: expected '!')");
      ++handle;
    }
    token.handle = std::string(text_.substr(pos_, handle));
    forward(handle);
    if (at() != ' ') failHere("a %TAG directive's handle and prefix are separated by a space (PyYAML: expected ' ', but found " + shownAt(text_, pos_) + ")");
    skipSpaces();
    token.handle += " " + scanTagUri(pos_);
    if (at() != '\0' && at() != ' ' && !breakAt()) failHere("a %TAG directive ends after its prefix (PyYAML: expected ' ', but found " + shownAt(text_, pos_) + ")");
  } else {
    while (pos_ < text_.size() && !breakAt()) forward();
  }
  skipSpaces();
  if (at() == '#') {
    while (pos_ < text_.size() && !breakAt()) forward();
  }
  if (pos_ < text_.size() && !breakAt()) {
    failHere("only a comment may follow a directive on its line (PyYAML: expected a comment or a line break, but found " +
             shownAt(text_, pos_) + ")");
  }
  tokens_.push(std::move(token));
}

void YamlScanner::fetchDocumentIndicator(YamlToken kind) {
  unwindIndent(-1);
  removeSimpleKey();
  allowSimpleKey_ = false;
  push(kind, pos_, pos_ + 3);
  forward(3);
}

void YamlScanner::fetchFlowCollectionStart(YamlToken kind) {
  saveSimpleKey();
  ++flowLevel_;
  allowSimpleKey_ = true;
  push(kind, pos_, pos_ + 1);
  forward();
}

void YamlScanner::fetchFlowCollectionEnd(YamlToken kind) {
  removeSimpleKey();
  if (flowLevel_ > 0) --flowLevel_;
  allowSimpleKey_ = false;
  push(kind, pos_, pos_ + 1);
  forward();
}

void YamlScanner::fetchFlowEntry() {
  allowSimpleKey_ = true;
  removeSimpleKey();
  push(YamlToken::FlowEntry, pos_, pos_ + 1);
  forward();
}

// `-`, `?` or a `:` with no key before it, in block context: allowed only where a key could start, and the start of
// a collection where the column grows.
void YamlScanner::blockIndicator(YamlToken collection, const char* refusal) {
  if (flowLevel_ > 0) return;
  if (!allowSimpleKey_) failHere(refusal);
  if (addIndent(column_)) push(collection, pos_, pos_);
}

void YamlScanner::fetchBlockEntry() {
  blockIndicator(YamlToken::BlockSequenceStart,
                 "a `- ` list item is not allowed here: start it on its own line, indented under its key "
                 "(PyYAML: sequence entries are not allowed here)");
  allowSimpleKey_ = true;
  removeSimpleKey();
  push(YamlToken::BlockEntry, pos_, pos_ + 1);
  forward();
}

void YamlScanner::fetchKey() {
  blockIndicator(YamlToken::BlockMappingStart, "a `? ` key is not allowed here (PyYAML: mapping keys are not allowed here)");
  allowSimpleKey_ = flowLevel_ == 0;
  removeSimpleKey();
  push(YamlToken::Key, pos_, pos_ + 1);
  forward();
}

void YamlScanner::fetchValue() {
  SimpleKey& key = keyAtLevel();
  if (key.possible) {
    // The key was scanned before its `:` was seen: insert KEY (and the mapping's start) before it.
    key.possible = false;
    const std::size_t index = key.tokenNumber - tokensTaken_;
    tokens_.insert(index, tokenAt(YamlToken::Key, key.offset, key.offset));
    if (flowLevel_ == 0 && addIndent(key.column)) {
      tokens_.insert(index, tokenAt(YamlToken::BlockMappingStart, key.offset, key.offset));
    }
    allowSimpleKey_ = false;
  } else {
    // A plain scalar just before a refused `:` (perhaps taken already): `batch_size:4` and the line after it.
    if (flowLevel_ == 0 && !allowSimpleKey_ && lastPlain_.number == tokensTaken_ + tokens_.size()) {
      failOnColonWithoutSpace(tokenAt(YamlToken::Scalar, lastPlain_.start, lastPlain_.end), "mapping values are not allowed here");
    }
    blockIndicator(YamlToken::BlockMappingStart,
                   "a `:` is not allowed here (quote a value that contains `: `, or check the indentation) "
                   "(PyYAML: mapping values are not allowed here)");
    allowSimpleKey_ = flowLevel_ == 0;
    removeSimpleKey();
  }
  push(YamlToken::Value, pos_, pos_ + 1);
  forward();
}

void YamlScanner::fetchAnchor(YamlToken kind) {
  saveSimpleKey();
  allowSimpleKey_ = false;
  const std::size_t start = pos_;
  forward();
  std::size_t length = 0;
  while (isWordChar(at(length))) ++length;
  const char after = at(length);
  const bool ends = blankOrEndAt(length) || std::string_view("?:,]}%@`").find(after) != std::string_view::npos;
  if (length == 0 || !ends) {
    fail(std::string(kind == YamlToken::Alias ? "an alias" : "an anchor") +
             " name takes only letters, digits, `-` and `_` (PyYAML: expected alphabetic or numeric character, but "
             "found " + shownAt(text_, pos_ + length) + ")",
         start, pos_ + length + 1);
  }
  Token token = tokenAt(kind, start, pos_ + length);
  token.value = std::string(text_.substr(pos_, length));
  forward(length);
  tokens_.push(std::move(token));
}

// `!!str`, `!local`, `!handle!suffix`, `!<verbatim>` or a lone `!`.
void YamlScanner::fetchTag() {
  saveSimpleKey();
  allowSimpleKey_ = false;
  const std::size_t start = pos_;
  Token token = tokenAt(YamlToken::Tag, start, start);
  if (at(1) == '<') {
    forward(2);
    token.value = scanTagUri(start);
    if (at() != '>') failHere("a verbatim tag `!<…>` is not closed with `>` (PyYAML: expected '>')");
    forward();
  } else if (blankOrEndAt(1)) {
    token.handle = "!";
    forward();
  } else {
    std::size_t length = 1;
    bool named = false;
    while (!blankOrEndAt(length) || at(length) == '\t') {
      if (at(length) == '!') {
        named = true;
        break;
      }
      ++length;
    }
    if (named) {
      forward();
      std::size_t word = 0;
      while (isWordChar(at(word))) ++word;
      if (at(word) != '!') failHere("a tag handle is `!name!` (PyYAML: expected '!')");
      token.handle = "!" + std::string(text_.substr(pos_, word)) + "!";
      forward(word + 1);
    } else {
      token.handle = "!";
      forward();
    }
    token.value = scanTagUri(start);
  }
  if (!blankOrEndAt(0) || at() == '\t') {
    fail("a tag must be followed by a space (PyYAML: expected ' ', but found " + shownAt(text_, pos_) + ")", start, pos_ + 1);
  }
  token.end = pos_;
  tokens_.push(std::move(token));
}

std::string YamlScanner::scanTagUri(std::size_t start) {
  static constexpr std::string_view kUriChars = "-;/?:@&=+$,_.!~*'()[]%";
  std::string out;
  while (isWordChar(at()) || kUriChars.find(at()) != std::string_view::npos) {
    if (at() == '%') {
      // A run of escapes is UTF-8 bytes, which must decode.
      std::string bytes;
      const std::size_t run = pos_;
      while (at() == '%') {
        if (!isAsciiHexDigit(at(1)) || !isAsciiHexDigit(at(2))) fail("a `%` in a tag must be followed by two hex digits (PyYAML: expected URI escape sequence)", pos_, pos_ + 3);
        bytes.push_back(static_cast<char>(std::stoi(std::string(text_.substr(pos_ + 1, 2)), nullptr, 16)));
        forward(3);
      }
      if (firstInvalidUtf8(bytes)) fail("the `%` escapes in this tag are not UTF-8 (PyYAML: invalid UTF-8 in a URI escape)", run, pos_);
      out += bytes;
    } else {
      out.push_back(at());
      forward();
    }
  }
  if (out.empty()) fail("a tag needs a name after its `!` (PyYAML: expected URI, but found " + shownAt(text_, pos_) + ")", start, pos_);
  return out;
}

void YamlScanner::fetchBlockScalar(ScalarStyle style) {
  allowSimpleKey_ = true;
  removeSimpleKey();
  tokens_.push(scanBlockScalar(style));
}

void YamlScanner::fetchQuoted(ScalarStyle style) {
  saveSimpleKey();
  allowSimpleKey_ = false;
  tokens_.push(scanQuoted(style));
}

bool YamlScanner::plainCanStart() const {
  const char c = at();
  static constexpr std::string_view kIndicators = "-?:,[]{}#&*!|>'\"%@`";
  if (!blankOrEndAt(0) && kIndicators.find(c) == std::string_view::npos) return true;
  return !blankOrEndAt(1) && (c == '-' || (flowLevel_ == 0 && (c == '?' || c == ':')));
}

void YamlScanner::fetchPlain() {
  saveSimpleKey();
  allowSimpleKey_ = false;
  tokens_.push(scanPlain());
  lastPlain_ = {tokens_.back().start, tokens_.back().end, tokensTaken_ + tokens_.size()};
}

}  // namespace oomlint
