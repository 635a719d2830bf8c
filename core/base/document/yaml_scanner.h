// The YAML scanner: text → tokens with exact byte ranges, following PyYAML's scanner (what AI
// Toolkit's loader accepts and refuses), including its simple-key rule: a `key:` on one line, at
// most 1024 characters, whose KEY token is inserted once its `:` is seen.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace oomlint {

enum class YamlToken : std::uint8_t {
  StreamEnd,
  Directive,
  DocumentStart,
  DocumentEnd,
  BlockSequenceStart,
  BlockMappingStart,
  BlockEnd,
  FlowSequenceStart,
  FlowMappingStart,
  FlowSequenceEnd,
  FlowMappingEnd,
  BlockEntry,
  FlowEntry,
  Key,
  Value,
  Alias,
  Anchor,
  Tag,
  Scalar,
};

// How a token reads in PyYAML's messages ("expected <block end>, but found '<scalar>'").
std::string_view describe(YamlToken kind);

enum class ScalarStyle : std::uint8_t { Plain, SingleQuoted, DoubleQuoted, Literal, Folded };

struct Token {
  YamlToken kind = YamlToken::StreamEnd;
  ScalarStyle style = ScalarStyle::Plain;
  std::size_t start = 0;
  std::size_t end = 0;
  std::string value;   // a scalar's decoded text; an anchor's or alias's name; a tag's suffix; a directive's name
  std::string handle;  // a tag's handle (`!`, `!!`, `!name!`; empty when verbatim); a directive's parameters
};

Token tokenAt(YamlToken kind, std::size_t start, std::size_t end, ScalarStyle style = ScalarStyle::Plain);
// How the character at `at` reads in a message: printable ASCII as itself, the rest by name.
std::string shownAt(std::string_view text, std::size_t at);

// A place in the text where the input is not YAML PyYAML reads: thrown by the scanner and parser.
struct YamlSyntaxError {
  std::string message;
  std::size_t start;
  std::size_t end;
};

// The tokens scanned but not yet taken, oldest first. A vector and the index of its front: the queue holds a few
// tokens at a time and empties often, so it allocates once and not a block per five tokens as a deque does.
class TokenQueue {
 public:
  bool empty() const { return head_ == tokens_.size(); }
  std::size_t size() const { return tokens_.size() - head_; }
  const Token& front() const { return tokens_[head_]; }
  const Token& back() const { return tokens_.back(); }
  const Token& operator[](std::size_t i) const { return tokens_[head_ + i]; }
  void push(Token token) { tokens_.push_back(std::move(token)); }
  void insert(std::size_t i, Token token) { tokens_.insert(tokens_.begin() + static_cast<std::ptrdiff_t>(head_ + i), std::move(token)); }
  Token take();

 private:
  std::vector<Token> tokens_;
  std::size_t head_ = 0;
};

class YamlScanner {
 public:
  // `text` must outlive the scanner; scanning starts after `skip` bytes (a byte order mark).
  YamlScanner(std::string_view text, std::size_t skip);

  const Token& peek();
  Token take();
  bool check(YamlToken kind) { return peek().kind == kind; }

 private:
  struct SimpleKey {
    bool possible = false;
    bool required = false;
    std::size_t tokenNumber = 0;
    std::size_t offset = 0;
    std::size_t line = 0;
    long column = 0;
  };

  char at(std::size_t ahead = 0) const { return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0'; }
  std::size_t breakLengthAt(std::size_t ahead) const;
  bool breakAt(std::size_t ahead = 0) const { return breakLengthAt(ahead) > 0; }
  bool blankOrEndAt(std::size_t ahead) const {
    const char c = at(ahead);
    return c == '\0' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || (static_cast<unsigned char>(c) >= 0xC2 && breakAt(ahead));
  }
  // How many bytes from `ahead` on are printable ASCII other than the space and `Stops`: never a blank or a break,
  // one column each, so a scalar's loop takes them at once (a signed or unsigned char above 0x7E stops it either way).
  template <char... Stops>
  std::size_t asciiRunAt(std::size_t ahead) const {
    std::size_t n = ahead;
    for (; pos_ + n < text_.size(); ++n) {
      const char c = text_[pos_ + n];
      if (c <= ' ' || c >= 0x7F || ((c == Stops) || ...)) break;
    }
    return n - ahead;
  }
  void forward(std::size_t bytes = 1);
  void forwardAscii(std::size_t bytes) {  // over bytes asciiRunAt counted
    pos_ += bytes;
    column_ += static_cast<long>(bytes);
  }
  void skipPrintableAscii();
  void skipSpaces();
  bool scanLineBreak(std::string* into = nullptr);
  [[noreturn]] void fail(std::string message, std::size_t start, std::size_t end) const;
  [[noreturn]] void failHere(std::string message) const { fail(std::move(message), pos_, pos_); }

  bool needMoreTokens();
  void fetchMoreTokens();
  void scanToNextToken();
  void push(YamlToken kind, std::size_t start, std::size_t end);

  // Indentation: a block collection starts where the column grows and ends where it shrinks.
  void unwindIndent(long column);
  bool addIndent(long column);
  void blockIndicator(YamlToken collection, const char* refusal);

  SimpleKey& keyAtLevel();
  void staleSimpleKeys();
  void saveSimpleKey();
  void removeSimpleKey();
  std::size_t nextSimpleKeyToken() const;
  [[noreturn]] void failMissingColon(const SimpleKey& key) const;
  void failOnColonWithoutSpace(const Token& scalar, std::string_view pyyaml) const;

  bool documentIndicator(char c) const;
  void fetchStreamEnd();
  void fetchDirective();
  void fetchDocumentIndicator(YamlToken kind);
  void fetchFlowCollectionStart(YamlToken kind);
  void fetchFlowCollectionEnd(YamlToken kind);
  void fetchFlowEntry();
  void fetchBlockEntry();
  void fetchKey();
  void fetchValue();
  void fetchAnchor(YamlToken kind);
  void fetchTag();
  void fetchBlockScalar(ScalarStyle style);
  void fetchQuoted(ScalarStyle style);
  void fetchPlain();
  bool plainCanStart() const;

  std::string scanTagUri(std::size_t start);
  Token scanBlockScalar(ScalarStyle style);
  Token scanQuoted(ScalarStyle style);
  void scanQuotedNonSpaces(bool isDouble, std::size_t start, std::string& out);
  void scanQuotedSpaces(std::size_t start, std::string& out);
  void scanQuotedBreaks(std::size_t start, std::string& out);
  Token scanPlain();
  bool scanPlainSpaces(std::string& out);

  std::string_view text_;
  std::size_t pos_;
  std::size_t line_ = 0;
  std::size_t lineStart_;
  long column_ = 0;  // in code points, as PyYAML counts

  TokenQueue tokens_;
  std::size_t tokensTaken_ = 0;
  // Whether the queue's front is final: needMoreTokens() said no, and nothing was taken or scanned since. The parser
  // peeks three or four times a token; only the first asks again.
  bool frontSettled_ = false;
  bool done_ = false;
  int flowLevel_ = 0;
  long indent_ = -1;
  std::vector<long> indents_;
  bool allowSimpleKey_ = true;
  std::vector<SimpleKey> simpleKeys_;  // one per flow level
  struct {
    std::size_t start = 0, end = 0;
    std::size_t number = 0;  // tokens fetched once it was: the last token while this equals the count
  } lastPlain_;
};

}  // namespace oomlint
