// YamlScanner's scalars: block (`|`, `>`), quoted ('…', "…") and plain, decoded and folded as PyYAML does.
#include <algorithm>

#include "base/document/yaml_scanner.h"
#include "base/text/ascii.h"
#include "base/text/source_text.h"

namespace oomlint {

namespace {

// Line folding: a line break followed by more breaks keeps only those; alone it becomes a space. LS and
// PS are never folded.
void foldBreaks(const std::string& lineBreak, const std::string& breaks, std::string& out) {
  if (lineBreak != "\n") {
    out += lineBreak;
  } else if (breaks.empty()) {
    out.push_back(' ');
  }
  out += breaks;
}

}  // namespace

// `|` or `>`, an optional chomping (`-`, `+`) and indentation (1–9) indicator, then the lines indented
// beyond the owner (or by the indicator); folding and chomping as PyYAML applies them.
Token YamlScanner::scanBlockScalar(ScalarStyle style) {
  const bool folded = style == ScalarStyle::Folded;
  Token token = tokenAt(YamlToken::Scalar, pos_, pos_, style);
  forward();
  int chomping = 0;  // -1 strip, 0 clip, +1 keep
  long increment = 0;
  auto readChomping = [&] {
    if (at() == '+' || at() == '-') {
      chomping = at() == '+' ? 1 : -1;
      forward();
    }
  };
  auto readIncrement = [&] {
    if (at() >= '0' && at() <= '9') {
      if (at() == '0') failHere("a block scalar's indentation indicator is 1–9 (PyYAML: expected indentation indicator in the range 1-9, but found 0)");
      increment = at() - '0';
      forward();
    }
  };
  if (at() == '+' || at() == '-') {
    readChomping();
    readIncrement();
  } else {
    readIncrement();
    readChomping();
  }
  token.end = pos_;
  if (at() != '\0' && at() != ' ' && !breakAt()) {
    failHere("after `|` or `>` only `+`, `-`, a digit, a space or a comment may follow on the line (PyYAML: expected "
             "chomping or indentation indicators, but found " + shownAt(text_, pos_) + ")");
  }
  skipSpaces();
  if (at() == '#') {
    while (pos_ < text_.size() && !breakAt()) forward();
  }
  if (pos_ < text_.size() && !breakAt()) {
    failHere("a block scalar's header line takes only a comment after its indicators (PyYAML: expected a comment or a line "
             "break, but found " + shownAt(text_, pos_) + ")");
  }
  scanLineBreak();

  const long minIndent = std::max(indent_ + 1, 1L);
  long indent = 0;
  std::string breaks;
  auto skipIndent = [&](long upTo) {
    while (column_ < upTo && at() == ' ') forward();
  };
  auto scanBreaks = [&](long upTo) {
    skipIndent(upTo);
    while (breakAt()) {
      scanLineBreak(&breaks);
      skipIndent(upTo);
    }
  };
  if (increment == 0) {
    long maxIndent = 0;
    while (at() == ' ' || breakAt()) {
      if (at() == ' ') {
        forward();
        maxIndent = std::max(maxIndent, column_);
      } else {
        scanLineBreak(&breaks);
      }
    }
    indent = std::max(minIndent, maxIndent);
  } else {
    indent = minIndent + increment - 1;
    scanBreaks(indent);
  }
  std::string& out = token.value;
  bool lineBreak = false;
  while (column_ == indent && pos_ < text_.size()) {
    out += breaks;
    breaks.clear();
    const bool leadingNonSpace = at() != ' ' && at() != '\t';
    std::size_t length = 0;
    while (pos_ + length < text_.size() && !breakAt(length)) ++length;
    out.append(text_.substr(pos_, length));
    forward(length);
    token.end = pos_;
    lineBreak = scanLineBreak();
    scanBreaks(indent);
    if (column_ != indent || pos_ >= text_.size()) break;
    if (folded && lineBreak && leadingNonSpace && at() != ' ' && at() != '\t') {
      if (breaks.empty()) out.push_back(' ');
    } else if (lineBreak) {
      out.push_back('\n');
    }
  }
  if (chomping >= 0 && lineBreak) out.push_back('\n');
  if (chomping > 0) out += breaks;
  return token;
}

Token YamlScanner::scanQuoted(ScalarStyle style) {
  const bool isDouble = style == ScalarStyle::DoubleQuoted;
  const char quote = at();
  Token token = tokenAt(YamlToken::Scalar, pos_, pos_, style);
  forward();
  scanQuotedNonSpaces(isDouble, token.start, token.value);
  while (at() != quote) {
    scanQuotedSpaces(token.start, token.value);
    scanQuotedNonSpaces(isDouble, token.start, token.value);
  }
  forward();
  token.end = pos_;
  return token;
}

void YamlScanner::scanQuotedNonSpaces(bool isDouble, std::size_t start, std::string& out) {
  for (;;) {
    const std::size_t ascii = asciiRunAt<'\'', '"', '\\'>(0);
    out.append(text_.substr(pos_, ascii));
    forwardAscii(ascii);
    std::size_t length = 0;
    while (pos_ + length < text_.size() && at(length) != '\'' && at(length) != '"' && at(length) != '\\' && !blankOrEndAt(length)) ++length;
    out.append(text_.substr(pos_, length));
    forward(length);
    const char c = at();
    if (!isDouble && c == '\'' && at(1) == '\'') {
      out.push_back('\'');
      forward(2);
    } else if ((isDouble && c == '\'') || (!isDouble && (c == '"' || c == '\\'))) {
      out.push_back(c);
      forward();
    } else if (isDouble && c == '\\') {
      const std::size_t escape = pos_;
      forward();
      const char e = at();
      static constexpr std::string_view kSimple = "0abt\tnvfre \"/\\N_LP";
      if (const auto index = kSimple.find(e); index != std::string_view::npos && pos_ < text_.size()) {
        static const char* const kReplacement[] = {"\0",   "\a",       "\b",       "\t",          "\t",
                                                   "\n",   "\v",       "\f",       "\r",          "\x1b",
                                                   " ",    "\"",       "/",        "\\",          "\xC2\x85",
                                                   "\xC2\xA0", "\xE2\x80\xA8", "\xE2\x80\xA9"};
        if (e == '0') {
          out.push_back('\0');
        } else {
          out.append(kReplacement[index]);
        }
        forward();
      } else if (e == 'x' || e == 'u' || e == 'U') {
        const std::size_t digits = e == 'x' ? 2 : e == 'u' ? 4 : 8;
        forward();
        for (std::size_t k = 0; k < digits; ++k) {
          if (!isAsciiHexDigit(at(k))) {
            fail("`\\" + std::string(1, e) + "` takes " + std::to_string(digits) +
                     " hexadecimal digits (PyYAML: expected escape sequence of " + std::to_string(digits) +
                     " hexadecimal numbers)",
                 escape, pos_ + k);
          }
        }
        const unsigned long code = std::stoul(std::string(text_.substr(pos_, digits)), nullptr, 16);
        if (code > 0x10FFFF) fail("`\\U` escapes a code point above U+10FFFF", escape, pos_ + digits);
        // A lone surrogate has no UTF-8 form: it reads as the replacement character.
        appendUtf8(out, code >= 0xD800 && code <= 0xDFFF ? 0xFFFD : code);
        forward(digits);
      } else if (breakAt()) {
        scanLineBreak();
        scanQuotedBreaks(start, out);
      } else {
        // The character whole (a UTF-8 sequence, not its first byte): the message must stay valid text.
        fail("`\\` followed by " + shownAt(text_, pos_) +
                 " is not an escape in a double-quoted string: write `\\\\` for a backslash, or use single quotes "
                 "(PyYAML: found unknown escape character)",
             escape, std::min(pos_ + 1, text_.size()));
      }
    } else {
      return;
    }
  }
}

void YamlScanner::scanQuotedSpaces(std::size_t start, std::string& out) {
  std::size_t length = 0;
  while (at(length) == ' ' || at(length) == '\t') ++length;
  const std::string_view whitespace = text_.substr(pos_, length);
  forward(length);
  if (pos_ >= text_.size()) {
    fail("unclosed quote: the string that starts here is never closed before the end of the file "
         "(PyYAML: found unexpected end of stream)",
         start, text_.size());
  }
  if (breakAt()) {
    std::string lineBreak;
    scanLineBreak(&lineBreak);
    std::string breaks;
    scanQuotedBreaks(start, breaks);
    foldBreaks(lineBreak, breaks, out);
  } else {
    out.append(whitespace);
  }
}

void YamlScanner::scanQuotedBreaks(std::size_t start, std::string& out) {
  for (;;) {
    if (documentIndicator('-') || documentIndicator('.')) {
      fail("unclosed quote: the string that starts here runs into a document marker (PyYAML: found unexpected document "
           "separator)",
           start, pos_);
    }
    while (at() == ' ' || at() == '\t') forward();
    if (!scanLineBreak(&out)) return;
  }
}

// A plain scalar: words separated by spaces, folded across lines indented beyond the collection; it
// ends at `: `, ` #`, a flow indicator in flow context, or a line indented too little.
Token YamlScanner::scanPlain() {
  Token token = tokenAt(YamlToken::Scalar, pos_, pos_, ScalarStyle::Plain);
  const long indent = indent_ + 1;
  std::string spaces;
  for (;;) {
    if (at() == '#') break;
    const std::size_t ascii = flowLevel_ == 0 ? asciiRunAt<':'>(0) : 0;
    std::size_t length = ascii;
    for (;;) {
      const char c = at(length);
      if (blankOrEndAt(length)) break;
      if (c == ':' && (blankOrEndAt(length + 1) ||
                       (flowLevel_ > 0 && std::string_view(",[]{}").find(at(length + 1)) != std::string_view::npos))) {
        break;
      }
      if (flowLevel_ > 0 && std::string_view(",?[]{}").find(c) != std::string_view::npos) break;
      ++length;
    }
    if (length == 0) break;
    allowSimpleKey_ = false;
    token.value += spaces;
    token.value.append(text_.substr(pos_, length));
    forwardAscii(ascii);
    forward(length - ascii);
    token.end = pos_;
    spaces.clear();
    if (!scanPlainSpaces(spaces) || at() == '#' || (flowLevel_ == 0 && column_ < indent)) break;
  }
  return token;
}

// The spaces and line breaks after a plain scalar's word, folded: one break becomes a space, n breaks
// n-1 newlines. False when nothing follows that could continue the scalar.
bool YamlScanner::scanPlainSpaces(std::string& out) {
  std::size_t length = 0;
  while (at(length) == ' ') ++length;
  const std::string_view whitespace = text_.substr(pos_, length);
  forward(length);
  if (breakAt()) {
    std::string lineBreak;
    scanLineBreak(&lineBreak);
    allowSimpleKey_ = true;
    if (documentIndicator('-') || documentIndicator('.')) return false;
    std::string breaks;
    while (at() == ' ' || breakAt()) {
      if (at() == ' ') {
        forward();
      } else {
        scanLineBreak(&breaks);
        if (documentIndicator('-') || documentIndicator('.')) return false;
      }
    }
    out.clear();
    foldBreaks(lineBreak, breaks, out);
    return true;
  }
  out = whitespace;
  return !whitespace.empty();
}

}  // namespace oomlint
