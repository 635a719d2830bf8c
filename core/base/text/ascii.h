// ASCII case folding for names and keywords (flags, model names, log words): locale-free on purpose.
#pragma once

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

namespace oomlint {

inline std::string lowercase(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

}  // namespace oomlint
