#include "systems/logs/progress_bar.h"

namespace oomlint {

std::optional<TqdmBar> tqdmBar(std::string_view line) {
  std::size_t pct = line.find("%|");
  std::size_t i = 0;
  if (pct != std::string_view::npos) {
    const std::size_t bar = line.find('|', pct + 2);
    if (bar == std::string_view::npos) return std::nullopt;
    i = bar + 1;
  } else {
    pct = line.find("% ");
    if (pct == std::string_view::npos || pct == 0 || !isAsciiDigit(line[pct - 1]) ||
        line.find(" [", pct) == std::string_view::npos) {
      return std::nullopt;
    }
    i = pct + 1;
  }
  while (i < line.size() && line[i] == ' ') ++i;
  const std::size_t start = i;
  while (i < line.size() && isAsciiDigit(line[i])) ++i;
  if (i == start || i >= line.size() || line[i] != '/') return std::nullopt;
  std::size_t descEnd = pct;
  while (descEnd > 0 && line[descEnd - 1] != ':' && !isAsciiSpace(line[descEnd - 1])) --descEnd;
  std::string_view desc = trimmed(line.substr(0, descEnd));
  if (!desc.empty() && desc.back() == ':') desc.remove_suffix(1);
  TqdmBar bar{desc, digitsAt(line, start), start, digitsAt(line, i + 1), i + 1, line.size()};
  std::size_t after = i + 1;
  while (after < line.size() && isAsciiDigit(line[after])) ++after;
  if (line.substr(after).starts_with(" [")) {
    if (const std::size_t close = line.find(']', after); close != std::string_view::npos) bar.end = close + 1;
  }
  return bar;
}

}  // namespace oomlint
