#include "base/document/yaml_text.h"

#include <algorithm>

#include "base/text/ascii.h"

namespace oomlint {

namespace {
bool isBreak(char c) { return c == '\n' || c == '\r'; }
bool isBlank(char c) { return c == ' ' || c == '\t'; }

std::size_t nextLine(std::string_view text, std::size_t offset) {
  std::size_t end = lineEndAt(text, offset);
  if (end < text.size() && text[end] == '\r') ++end;
  if (end < text.size() && text[end] == '\n') ++end;
  return end;
}

bool looksLikeKeyLine(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && isBlank(line[i])) ++i;
  if (i < line.size() && line[i] == '-' && i + 1 < line.size() && line[i + 1] == ' ') i += 2;
  const std::size_t start = i;
  while (i < line.size() && (isAsciiAlnum(line[i]) || line[i] == '_' || line[i] == '-' ||
                             line[i] == '.')) {
    ++i;
  }
  return i > start && i < line.size() && line[i] == ':' && (i + 1 == line.size() || isBlank(line[i + 1]));
}
}  // namespace

std::size_t lineEndAt(std::string_view text, std::size_t offset) {
  while (offset < text.size() && !isBreak(text[offset])) ++offset;
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
