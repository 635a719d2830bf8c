// A log line as the scanner reads it: ASCII tests inline (they run on every byte of a gigabyte log),
// and the cleaning that turns a line as written into the text the markers are matched against.
#pragma once

#include <string>
#include <string_view>

#include "base/text/ascii.h"

namespace oomlint {

inline bool contains(std::string_view s, std::string_view what) { return s.find(what) != std::string_view::npos; }

constexpr std::string_view trimmed(std::string_view s) {
  while (!s.empty() && isAsciiSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && isAsciiSpace(s.back())) s.remove_suffix(1);
  return s;
}

// The number whose digits start at `digits` (0 when it overflows): a bar's step, whether the line is
// parsed or taken as a redraw.
inline long digitsAt(std::string_view s, std::size_t digits) {
  long value = 0;
  for (std::size_t i = digits; i < s.size() && isAsciiDigit(s[i]); ++i) {
    if (__builtin_mul_overflow(value, 10, &value) || __builtin_add_overflow(value, s[i] - '0', &value)) return 0;
  }
  return value;
}

// The line without ANSI colours, docker compose's "service-1  | " and torchrun's "[rank0]: " prefixes,
// trimmed. Only a line with ANSI codes is copied (into `storage`); the others are viewed in place.
std::string_view cleanLine(std::string_view raw, std::string& storage);

// The shell's prompt back on the console: cmd's `C:\dir>`, PowerShell's `PS C:\dir>`, bash's `user@host:dir$` (or `#` as
// root), after an optional `(venv) `.
bool isShellPrompt(std::string_view line);

}  // namespace oomlint
