#include "base/document/yaml_text.h"

#include <algorithm>
#include <cctype>

namespace oomlint {

namespace {
bool isBreak(char c) { return c == '\n' || c == '\r'; }
bool isBlank(char c) { return c == ' ' || c == '\t'; }
bool isSpace(char c) { return isBlank(c) || isBreak(c); }
bool isFlowIndicator(char c) { return c == ',' || c == '[' || c == ']' || c == '{' || c == '}'; }

std::size_t nextLine(std::string_view text, std::size_t offset) {
  std::size_t end = lineEndAt(text, offset);
  if (end < text.size() && text[end] == '\r') ++end;
  if (end < text.size() && text[end] == '\n') ++end;
  return end;
}

// Scans one line segment of a plain scalar: returns the end of its last non-blank character.
std::size_t plainSegmentEnd(std::string_view text, std::size_t i, bool flow) {
  const std::size_t begin = i;
  std::size_t last = i;
  for (; i < text.size() && !isBreak(text[i]); ++i) {
    const char c = text[i];
    if (c == '#' && i > begin && isBlank(text[i - 1])) break;
    if (c == ':' && (i + 1 >= text.size() || isSpace(text[i + 1]) || (flow && isFlowIndicator(text[i + 1])))) break;
    if (flow && isFlowIndicator(c)) break;
    if (!isBlank(c)) last = i + 1;
  }
  return last;
}

bool looksLikeKeyLine(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && isBlank(line[i])) ++i;
  if (i < line.size() && line[i] == '-' && i + 1 < line.size() && line[i + 1] == ' ') i += 2;
  const std::size_t start = i;
  while (i < line.size() && (std::isalnum(static_cast<unsigned char>(line[i])) || line[i] == '_' || line[i] == '-' ||
                             line[i] == '.')) {
    ++i;
  }
  return i > start && i < line.size() && line[i] == ':' && (i + 1 == line.size() || isBlank(line[i + 1]));
}
}  // namespace

std::size_t lineStartAt(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  while (offset > 0 && !isBreak(text[offset - 1])) --offset;
  return offset;
}

std::size_t lineEndAt(std::string_view text, std::size_t offset) {
  while (offset < text.size() && !isBreak(text[offset])) ++offset;
  return offset;
}

std::size_t indentOfLineAt(std::string_view text, std::size_t offset) {
  std::size_t i = lineStartAt(text, offset);
  const std::size_t start = i;
  while (i < text.size() && text[i] == ' ') ++i;
  return i - start;
}

std::size_t skipProperties(std::string_view text, std::size_t offset) {
  while (offset < text.size() && (text[offset] == '&' || text[offset] == '!')) {
    while (offset < text.size() && !isSpace(text[offset])) ++offset;
    while (offset < text.size() && isSpace(text[offset])) ++offset;
  }
  return offset;
}

std::optional<std::size_t> quotedEnd(std::string_view text, std::size_t offset) {
  const char quote = text[offset];
  std::size_t i = offset + 1;
  while (i < text.size()) {
    const char c = text[i];
    if (quote == '"' && c == '\\') {
      i += 2;
      continue;
    }
    if (c == quote) {
      if (quote == '\'' && i + 1 < text.size() && text[i + 1] == '\'') {
        i += 2;  // '' is an escaped quote
        continue;
      }
      return i + 1;
    }
    ++i;
  }
  return std::nullopt;
}

std::size_t blockScalarEnd(std::string_view text, std::size_t offset, long ownerIndent) {
  std::size_t end = lineEndAt(text, offset);
  // Trim a trailing comment from the header line for the range.
  std::size_t headerEnd = offset;
  while (headerEnd < end && !isBlank(text[headerEnd])) ++headerEnd;
  std::size_t result = headerEnd;
  std::size_t i = nextLine(text, offset);
  while (i < text.size()) {
    std::size_t contentEnd = lineEndAt(text, i);
    std::size_t j = i;
    while (j < contentEnd && text[j] == ' ') ++j;
    if (j == contentEnd || (j < contentEnd && text[j] == '\t' && std::all_of(text.begin() + static_cast<long>(j),
                                                                             text.begin() + static_cast<long>(contentEnd),
                                                                             isBlank))) {
      i = nextLine(text, i);  // blank line: part of the scalar only if content follows
      continue;
    }
    if (static_cast<long>(j - i) <= ownerIndent) break;
    while (contentEnd > j && isBlank(text[contentEnd - 1])) --contentEnd;
    result = contentEnd;
    i = nextLine(text, i);
  }
  return result;
}

std::size_t plainEnd(std::string_view text, std::size_t offset, bool flow, std::size_t valueBytes) {
  std::size_t end = plainSegmentEnd(text, offset, flow);
  std::size_t consumed = end - offset;
  std::size_t line = offset;
  // A multi-line plain scalar: follow its continuation lines until the folded value is accounted for.
  while (consumed < valueBytes) {
    std::size_t blanks = 0;
    line = nextLine(text, line);
    while (line < text.size()) {
      std::size_t j = line;
      while (j < text.size() && isBlank(text[j])) ++j;
      if (j < text.size() && !isBreak(text[j])) break;
      ++blanks;
      line = nextLine(text, line);
    }
    if (line >= text.size()) break;
    std::size_t j = line;
    while (j < text.size() && isBlank(text[j])) ++j;
    if (text[j] == '#') break;
    const std::size_t segmentEnd = plainSegmentEnd(text, j, flow);
    if (segmentEnd == j) break;
    consumed += std::max<std::size_t>(1, blanks) + (segmentEnd - j);
    end = segmentEnd;
  }
  return end;
}

std::size_t aliasEnd(std::string_view text, std::size_t offset) {
  std::size_t i = offset + 1;
  while (i < text.size() && !isSpace(text[i]) && !isFlowIndicator(text[i])) ++i;
  return i;
}

std::size_t flowCloseEnd(std::string_view text, std::size_t offset) {
  std::size_t i = offset;
  while (i < text.size()) {
    const char c = text[i];
    if (c == ']' || c == '}') return i + 1;
    if (c == '#' && (i == 0 || isSpace(text[i - 1]))) {
      i = lineEndAt(text, i);
      continue;
    }
    if (!isSpace(c) && c != ',') return i;  // not where we expected: keep the range tight
    ++i;
  }
  return text.size();
}

std::size_t afterColon(std::string_view text, std::size_t offset) {
  std::size_t i = offset;
  while (i < text.size() && isBlank(text[i])) ++i;
  if (i < text.size() && text[i] == ':') return i + 1;
  return offset;
}

bool isExplicitKey(std::string_view text, std::size_t offset) {
  std::size_t i = offset;
  while (i > 0 && isBlank(text[i - 1])) --i;
  return i > 0 && text[i - 1] == '?';
}

std::optional<std::size_t> findRunawayQuote(std::string_view text, std::size_t errorOffset) {
  std::optional<std::size_t> found;
  std::size_t line = 0;
  while (line < text.size() && line <= errorOffset) {
    const std::size_t end = lineEndAt(text, line);
    std::string_view content = text.substr(line, end - line);
    // A quote that opens a value: after `key: ` or `- `.
    std::size_t open = std::string_view::npos;
    for (std::size_t i = 0; i + 1 < content.size(); ++i) {
      if (content[i] == '#' && (i == 0 || isBlank(content[i - 1]))) break;
      if ((content[i] == '"' || content[i] == '\'') && i > 0 && isBlank(content[i - 1]) &&
          (content.substr(0, i).find_last_not_of(" \t") != std::string_view::npos) &&
          (content[content.substr(0, i).find_last_not_of(" \t")] == ':' ||
           content[content.substr(0, i).find_last_not_of(" \t")] == '-')) {
        open = i;
        break;
      }
    }
    if (open != std::string_view::npos) {
      const std::size_t close = quotedEnd(text, line + open).value_or(text.size());
      if (close > end) {
        const std::size_t next = nextLine(text, line);
        if (next < text.size() && looksLikeKeyLine(text.substr(next, lineEndAt(text, next) - next))) {
          found = line + open;
        }
      }
    }
    const std::size_t following = nextLine(text, line);
    if (following == line) break;
    line = following;
  }
  return found;
}

}  // namespace oomlint
