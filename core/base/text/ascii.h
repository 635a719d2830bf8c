// ASCII character classes and case folding for names, keys and keywords (flags, model names, log
// words, YAML/TOML/JSON syntax): locale-free on purpose, and defined for every char (a UTF-8 byte is
// simply not a letter), where <cctype> depends on the C locale and is undefined for negative chars.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>

namespace oomlint {

constexpr bool isAsciiDigit(char c) { return c >= '0' && c <= '9'; }
constexpr bool isAsciiUpper(char c) { return c >= 'A' && c <= 'Z'; }
constexpr bool isAsciiLower(char c) { return c >= 'a' && c <= 'z'; }
constexpr bool isAsciiAlpha(char c) { return isAsciiUpper(c) || isAsciiLower(c); }
constexpr bool isAsciiAlnum(char c) { return isAsciiAlpha(c) || isAsciiDigit(c); }
// The C locale's white space: space, \t, \n, \v, \f, \r.
constexpr bool isAsciiSpace(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
constexpr char asciiLower(char c) { return isAsciiUpper(c) ? static_cast<char>(c - 'A' + 'a') : c; }
constexpr char asciiUpper(char c) { return isAsciiLower(c) ? static_cast<char>(c - 'a' + 'A') : c; }
// 0–15 for a hex digit of either case, -1 for anything else.
constexpr int hexDigitValue(char c) {
  if (isAsciiDigit(c)) return c - '0';
  const char lower = asciiLower(c);
  return lower >= 'a' && lower <= 'f' ? lower - 'a' + 10 : -1;
}
constexpr bool isAsciiHexDigit(char c) { return hexDigitValue(c) >= 0; }

inline std::string lowercase(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), asciiLower);
  return out;
}

constexpr bool equalsIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return asciiLower(x) == asciiLower(y); });
}

}  // namespace oomlint
