#include "systems/logs/line_text.h"

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
  // torchrun/accelerate prefix each rank's output with "[rank0]: ".
  if (line.starts_with("[rank") && line.find("]: ") != std::string_view::npos && line.find("]: ") < 12) {
    line.remove_prefix(line.find("]: ") + 3);
  }
  return trimmed(line);
}

}  // namespace oomlint
