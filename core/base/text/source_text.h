// SourceText: the input bytes plus a line index, so that any byte offset can be turned into the
// 1-based line and code-point column that every diagnostic carries.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace oomlint {

struct Position {
  int line = 1;        // 1-based
  int column = 1;      // 1-based, in Unicode code points
  std::size_t offset = 0;  // byte offset into the source

  friend bool operator==(const Position&, const Position&) = default;
};

struct Range {
  Position start;
  Position end;  // exclusive: the position just after the last character
};

class SourceText {
 public:
  explicit SourceText(std::string text);

  const std::string& text() const { return text_; }
  std::size_t size() const { return text_.size(); }
  int lineCount() const { return static_cast<int>(lineStarts_.size()); }

  Position positionAt(std::size_t offset) const;
  Range rangeOf(std::size_t begin, std::size_t end) const;
  // The text of a 1-based line, without its line break.
  std::string_view line(int line) const;
  std::size_t lineStart(int line) const;

 private:
  // Code points before byte 64·k, so a column costs at most 64 steps even on one 8 MiB line (minified
  // JSON): counting from the line start would make positions quadratic in the line's length. Pure
  // ASCII text (the usual config) has none: there a column is a byte count.
  std::size_t codePointsBefore(std::size_t offset) const;
  std::size_t codePointsBetween(std::size_t begin, std::size_t end) const;

  std::string text_;
  std::vector<std::size_t> lineStarts_;
  std::vector<std::size_t> codePointCheckpoints_;
};

// The offset of the first byte that is not valid UTF-8, if any (overlongs, surrogates and
// code points above U+10FFFF are invalid, as Python's decoder says).
std::optional<std::size_t> firstInvalidUtf8(std::string_view text);

// Appends a Unicode scalar value (≤ U+10FFFF, not a surrogate) as UTF-8: the JSON and TOML escapes.
void appendUtf8(std::string& out, unsigned long codePoint);

// Number of code points in valid UTF-8 text.
int codePointCount(std::string_view text);

}  // namespace oomlint
