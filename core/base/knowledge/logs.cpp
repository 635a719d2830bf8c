#include "base/knowledge/logs.h"

#include <algorithm>

namespace oomlint {

namespace {

bool found(std::string_view text, std::string_view word) { return text.find(word) != std::string_view::npos; }

bool isPathChar(char c) { return c != '<' && c != '>' && c != '|' && c != '"' && c != '*' && c != '?'; }

// cmd's `C:\dir>` and PowerShell's `PS C:\dir>`, bash's `user@host:dir$` (or `#` as root), after an optional `(venv) `.
bool isShellPrompt(std::string_view line) {
  if (line.empty() || (line.back() != '>' && line.back() != '$' && line.back() != '#')) return false;  // most lines, at once
  if (line.starts_with("(")) {
    const std::size_t close = line.find(") ");
    if (close == std::string_view::npos) return false;
    line.remove_prefix(close + 2);
  }
  if (line.starts_with("PS ")) line.remove_prefix(3);
  const auto isLetter = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); };
  if (line.size() >= 4 && isLetter(line[0]) && line[1] == ':' && line[2] == '\\' && line.back() == '>') {
    return std::all_of(line.begin() + 3, line.end() - 1, isPathChar);
  }
  // user@host:dir$ — one word before the colon, a path after it (`~` or `/` first, no spaces).
  const std::size_t at = line.find('@'), colon = line.find(':');
  if (line.size() < 5 || (line.back() != '$' && line.back() != '#') || at == std::string_view::npos || at == 0 ||
      colon == std::string_view::npos || colon < at + 2 || (line[colon + 1] != '~' && line[colon + 1] != '/')) {
    return false;
  }
  return line.substr(0, line.size() - 1).find(' ') == std::string_view::npos;
}

}  // namespace

bool LineTest::matches(std::string_view line, const LiteralSet::Found& words) const {
  return std::any_of(containsIds.begin(), containsIds.end(), [&](LiteralSet::Id id) { return words.has(id); }) ||
         std::any_of(startsWith.begin(), startsWith.end(), [&](const std::string& w) { return line.starts_with(w); }) ||
         std::any_of(endsWith.begin(), endsWith.end(), [&](const std::string& w) { return line.ends_with(w); }) ||
         std::any_of(equals.begin(), equals.end(), [&](const std::string& w) { return line == w; });
}

bool LineTest::matches(std::string_view text) const {
  return std::any_of(contains.begin(), contains.end(), [&](const std::string& w) { return found(text, w); }) ||
         std::any_of(startsWith.begin(), startsWith.end(), [&](const std::string& w) { return text.starts_with(w); }) ||
         std::any_of(endsWith.begin(), endsWith.end(), [&](const std::string& w) { return text.ends_with(w); }) ||
         std::any_of(equals.begin(), equals.end(), [&](const std::string& w) { return text == w; });
}

bool SilentExit::matches(std::string_view line, const LiteralSet::Found& words) const {
  return shellPrompt ? isShellPrompt(line) : test.matches(line, words);
}

std::size_t LogMarkers::toolRank(std::string_view tool) const {
  for (std::size_t i = 0; i < toolSigns.size(); ++i) {
    if (toolSigns[i].tool == tool) return i;
  }
  return toolSigns.size();
}

}  // namespace oomlint
