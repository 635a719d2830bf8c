#include "base/text/source_text.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>

namespace oomlint {

namespace {
constexpr std::size_t kCheckpoint = 64;
bool isLead(char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }

constexpr std::uint64_t kHighBits = 0x8080808080808080ull;

// Where the run of ASCII that starts at `i` ends, eight bytes at a time: configs are almost all ASCII.
std::size_t asciiRunEnd(std::string_view s, std::size_t i) {
  std::uint64_t word = 0;
  while (i + 8 <= s.size() && (std::memcpy(&word, s.data() + i, 8), (word & kHighBits) == 0)) i += 8;
  while (i < s.size() && static_cast<unsigned char>(s[i]) < 0x80) ++i;
  return i;
}

// The code points in text[begin, end): its bytes less the continuation bytes (10xxxxxx), eight at a time (the last
// word's bytes past `end` masked off, where the text is long enough to load it whole).
std::size_t leadBytes(const std::string& text, std::size_t begin, std::size_t end) {
  const auto continuations = [&](std::size_t at, std::uint64_t keep) {
    std::uint64_t word = 0;
    std::memcpy(&word, text.data() + at, 8);
    const std::uint64_t flags = ((word & ~(word << 1) & kHighBits) >> 7) & keep;  // bit 7 set, bit 6 clear
    return static_cast<std::size_t>((flags * 0x0101010101010101ull) >> 56);                   // the bytes' sum
  };
  static_assert(std::endian::native == std::endian::little, "a word's first byte is its lowest");
  std::size_t count = end - begin;
  std::size_t i = begin;
  for (; i + 8 <= end; i += 8) count -= continuations(i, ~0ull);
  if (i < end && i + 8 <= text.size()) return count - continuations(i, (1ull << (8 * (end - i))) - 1);
  for (; i < end; ++i) count -= !isLead(text[i]);
  return count;
}
}  // namespace

SourceText::SourceText(std::string text) : text_(std::move(text)) {
  const std::size_t size = text_.size();
  if (asciiRunEnd(text_, 0) != size) {
    codePointCheckpoints_.reserve(size / kCheckpoint + 1);
    std::size_t count = 0;
    for (std::size_t block = 0; block < size; block += kCheckpoint) {
      codePointCheckpoints_.push_back(count);
      count += leadBytes(text_, block, std::min(size, block + kCheckpoint));
    }
  }
  lineStarts_.push_back(0);
  const char* data = text_.data();
  if (std::memchr(data, '\r', size) == nullptr) {
    for (const char* p = data; (p = static_cast<const char*>(std::memchr(p, '\n', size - (p - data)))) != nullptr;) {
      lineStarts_.push_back(static_cast<std::size_t>(++p - data));
    }
    return;
  }
  for (std::size_t i = 0; i < size; ++i) {
    // A lone '\r' (old Mac) counts as a line break too, as it does for YAML.
    if (data[i] == '\n' || (data[i] == '\r' && (i + 1 >= size || data[i + 1] != '\n'))) lineStarts_.push_back(i + 1);
  }
}

std::size_t SourceText::lineStart(int line) const {
  if (line < 1) return 0;
  if (line > lineCount()) return text_.size();
  return lineStarts_[static_cast<std::size_t>(line - 1)];
}

std::string_view SourceText::line(int line) const {
  if (line < 1 || line > lineCount()) return {};
  std::size_t begin = lineStart(line);
  std::size_t end = line < lineCount() ? lineStart(line + 1) : text_.size();
  while (end > begin && (text_[end - 1] == '\n' || text_[end - 1] == '\r')) --end;
  return std::string_view(text_).substr(begin, end - begin);
}

std::size_t SourceText::codePointsBefore(std::size_t offset) const {
  if (codePointCheckpoints_.empty()) return offset;  // ASCII: one byte per code point
  const std::size_t block = std::min(offset / kCheckpoint, codePointCheckpoints_.size() - 1);
  // Lead bytes only, so a column is a code point index even in invalid text.
  return codePointCheckpoints_[block] + leadBytes(text_, block * kCheckpoint, offset);
}

std::size_t SourceText::codePointsBetween(std::size_t begin, std::size_t end) const {
  if (codePointCheckpoints_.empty()) return end - begin;
  if (end - begin <= 2 * kCheckpoint) return leadBytes(text_, begin, end);
  return codePointsBefore(end) - codePointsBefore(begin);
}

Position SourceText::positionAt(std::size_t offset) const {
  offset = std::min(offset, text_.size());
  auto it = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), offset);
  const int line = static_cast<int>(it - lineStarts_.begin());
  const std::size_t begin = lineStarts_[static_cast<std::size_t>(line - 1)];
  return {line, static_cast<int>(codePointsBetween(begin, offset)) + 1, offset};
}

Range SourceText::rangeOf(std::size_t begin, std::size_t end) const {
  const Position first = positionAt(begin);
  end = std::clamp(end, first.offset, text_.size());
  // A range that ends on the line it starts on (most do): its end's column counts on from its start's.
  const auto line = static_cast<std::size_t>(first.line);  // the next line's index in lineStarts_
  if (line < lineStarts_.size() && lineStarts_[line] <= end) return {first, positionAt(end)};
  return {first, {first.line, first.column + static_cast<int>(codePointsBetween(first.offset, end)), end}};
}

void appendUtf8(std::string& out, unsigned long cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

std::optional<std::size_t> firstInvalidUtf8(std::string_view s) {
  std::size_t i = 0;
  const std::size_t n = s.size();
  while (i < n) {
    i = asciiRunEnd(s, i);
    if (i >= n) break;
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t len = 0;
    unsigned cp = 0;
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
      cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      cp = c & 0x07;
    } else {
      return i;
    }
    if (i + len > n) return i;
    for (std::size_t k = 1; k < len; ++k) {
      const auto cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (cc & 0x3F);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF)) {
      return i;
    }
    i += len;
  }
  return std::nullopt;
}

int codePointCount(std::string_view s) {
  int count = 0;
  for (char ch : s) {
    if ((static_cast<unsigned char>(ch) & 0xC0) != 0x80) ++count;
  }
  return count;
}

}  // namespace oomlint
