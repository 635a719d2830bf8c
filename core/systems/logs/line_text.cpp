#include "systems/logs/line_text.h"

#include <algorithm>

#include "base/text/ascii.h"

namespace oomlint {

namespace {

// Removes ANSI escape sequences (colours, cursor moves).
std::string withoutAnsi(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\x1b') {
      if (i + 1 < s.size() && s[i + 1] == '[') {
        i += 2;
        while (i < s.size() && !(s[i] >= '@' && s[i] <= '~')) ++i;
      } else {
        ++i;
      }
      continue;
    }
    out.push_back(s[i]);
  }
  return out;
}

// NMKD Stable Diffusion GUI's prefix: the line's number and time, "[00000548] [01-24-2023 23:16:29] ". Its length, or 0.
std::size_t nmkdPrefix(std::string_view line) {
  constexpr std::string_view kShape = "[0] [00-00-0000 00:00:00] ";  // '0': a digit; the number may be longer
  if (!line.starts_with('[')) return 0;
  std::size_t i = 1;
  while (i < line.size() && i < 16 && isAsciiDigit(line[i])) ++i;
  if (i == 1) return 0;
  const std::string_view rest = line.substr(i);
  if (rest.size() < kShape.size() - 2) return 0;
  for (std::size_t k = 2; k < kShape.size(); ++k) {
    const char want = kShape[k], got = rest[k - 2];
    if (want == '0' ? !isAsciiDigit(got) : got != want) return 0;
  }
  return i + kShape.size() - 2;
}

}  // namespace

std::string_view cleanLine(std::string_view raw, std::string& storage) {
  std::string_view line = raw;
  if (raw.find('\x1b') != std::string_view::npos) {
    storage = withoutAnsi(raw);
    line = storage;
  }
  // docker compose's prefix: its "  | " starts at the line's first space.
  if (const std::size_t bar = line.find(' '); bar < 48 && line.substr(bar).starts_with("  | ")) {
    line.remove_prefix(bar + 4);
  }
  line.remove_prefix(nmkdPrefix(line));
  // torchrun/accelerate prefix each rank's output with "[rank0]: ".
  if (line.starts_with("[rank") && line.find("]: ") != std::string_view::npos && line.find("]: ") < 12) {
    line.remove_prefix(line.find("]: ") + 3);
  }
  return trimmed(line);
}

namespace {

bool isPathChar(char c) { return c != '<' && c != '>' && c != '|' && c != '"' && c != '*' && c != '?'; }

}  // namespace

bool isShellPrompt(std::string_view line) {
  if (line.empty() || (line.back() != '>' && line.back() != '$' && line.back() != '#')) return false;  // most lines, at once
  if (line.starts_with("(")) {
    const std::size_t close = line.find(") ");
    if (close == std::string_view::npos) return false;
    line.remove_prefix(close + 2);
  }
  if (line.starts_with("PS ")) line.remove_prefix(3);
  if (line.size() >= 4 && isAsciiAlpha(line[0]) && line[1] == ':' && line[2] == '\\' && line.back() == '>') {
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

}  // namespace oomlint
