#include "base/document/scalar_resolver.h"

#include <array>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

#include "base/text/ascii.h"

namespace oomlint {

namespace {

bool oneOf(std::string_view s, std::initializer_list<std::string_view> words) {
  for (auto w : words) {
    if (s == w) return true;
  }
  return false;
}

std::string withoutUnderscores(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c != '_') out.push_back(c);
  }
  return out;
}

// [-+]? prefix
std::string_view stripSign(std::string_view s, bool& negative) {
  negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  return s;
}

bool allOf(std::string_view s, std::string_view alphabet) {
  if (s.empty()) return false;
  for (char c : s) {
    if (alphabet.find(c) == std::string_view::npos) return false;
  }
  return true;
}

// (?::[0-5]?[0-9])+ — sexagesimal groups after the first ("1:30:00")
bool sexagesimalTail(std::string_view s) {
  if (s.empty()) return false;
  while (!s.empty()) {
    if (s[0] != ':') return false;
    s.remove_prefix(1);
    std::size_t n = 0;
    while (n < s.size() && isAsciiDigit(s[n])) ++n;
    if (n == 0 || n > 2 || (n == 2 && s[0] > '5')) return false;
    s.remove_prefix(n);
  }
  return true;
}

// [eE][-+][0-9]+ ; `signRequired` follows PyYAML (the sign is optional in AI Toolkit's resolver)
bool exponent(std::string_view s, bool signRequired) {
  if (s.size() < 2 || (s[0] != 'e' && s[0] != 'E')) return false;
  s.remove_prefix(1);
  if (s[0] == '-' || s[0] == '+') {
    s.remove_prefix(1);
  } else if (signRequired) {
    return false;
  }
  return allOf(s, "0123456789");
}

bool resolveInt(std::string_view text, std::int64_t& out) {
  bool negative = false;
  std::string_view s = stripSign(text, negative);
  if (s.empty()) return false;
  int base = 10;
  std::string digits;
  if (s.starts_with("0b")) {
    if (!allOf(s.substr(2), "01_")) return false;
    base = 2;
    digits = withoutUnderscores(s.substr(2));
  } else if (s.starts_with("0x")) {
    if (!allOf(s.substr(2), "0123456789abcdefABCDEF_")) return false;
    base = 16;
    digits = withoutUnderscores(s.substr(2));
  } else if (s[0] == '0' && s.size() > 1) {
    if (!allOf(s.substr(1), "01234567_")) return false;
    base = 8;
    digits = withoutUnderscores(s.substr(1));
  } else if (s == "0") {
    digits = "0";
  } else if (s[0] >= '1' && s[0] <= '9') {
    std::size_t colon = s.find(':');
    if (colon != std::string_view::npos) {
      // Sexagesimal: 1:30 == 90.
      if (!allOf(s.substr(0, colon), "0123456789_") || !sexagesimalTail(s.substr(colon))) return false;
      std::int64_t value = 0;
      std::size_t start = 0;
      while (start <= s.size()) {
        std::size_t end = s.find(':', start);
        if (end == std::string_view::npos) end = s.size();
        value = value * 60 + std::strtoll(withoutUnderscores(s.substr(start, end - start)).c_str(), nullptr, 10);
        start = end + 1;
      }
      out = negative ? -value : value;
      return true;
    }
    if (!allOf(s, "0123456789_")) return false;
    digits = withoutUnderscores(s);
  } else {
    return false;
  }
  if (digits.empty()) return false;
  errno = 0;
  char* end = nullptr;
  unsigned long long magnitude = std::strtoull(digits.c_str(), &end, base);
  if (errno == ERANGE || magnitude > static_cast<unsigned long long>(std::numeric_limits<std::int64_t>::max())) {
    // Python ints are unbounded; clamp, since no config value can sensibly be this large.
    magnitude = static_cast<unsigned long long>(std::numeric_limits<std::int64_t>::max());
  }
  out = negative ? -static_cast<std::int64_t>(magnitude) : static_cast<std::int64_t>(magnitude);
  return true;
}

bool resolveFloat(std::string_view text, double& out) {
  bool negative = false;
  std::string_view s = stripSign(text, negative);
  if (oneOf(s, {".inf", ".Inf", ".INF"})) {
    out = negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    return true;
  }
  if (oneOf(text, {".nan", ".NaN", ".NAN"})) {
    out = std::numeric_limits<double>::quiet_NaN();
    return true;
  }
  if (s.empty()) return false;
  bool matched = false;
  const std::size_t dot = s.find('.');
  const std::size_t colon = s.find(':');
  if (colon != std::string_view::npos) {
    // [-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*
    if (dot == std::string_view::npos || dot < colon || !isAsciiDigit(s[0])) return false;
    if (!allOf(s.substr(0, colon), "0123456789_") || !sexagesimalTail(s.substr(colon, dot - colon))) return false;
    std::string_view frac = s.substr(dot + 1);
    if (!frac.empty() && !allOf(frac, "0123456789_")) return false;
    double value = 0;
    std::size_t start = 0;
    while (start < dot) {
      std::size_t end = std::min(s.find(':', start), dot);
      value = value * 60 + std::strtod(withoutUnderscores(s.substr(start, end - start)).c_str(), nullptr);
      start = end + 1;
    }
    value = value * 60 + std::strtod(("0." + withoutUnderscores(frac)).c_str(), nullptr) * 60;
    out = negative ? -value : value;
    return true;
  }
  if (dot != std::string_view::npos) {
    std::string_view intPart = s.substr(0, dot);
    std::string_view rest = s.substr(dot + 1);
    std::size_t e = rest.find_first_of("eE");
    std::string_view frac = rest.substr(0, e);
    bool fracOk = frac.empty() || allOf(frac, "0123456789_");
    bool expOk = e == std::string_view::npos || exponent(rest.substr(e), /*signRequired=*/true);
    if (!intPart.empty()) {
      // [-+]?[0-9][0-9_]*\.[0-9_]*(?:[eE][-+][0-9]+)?
      matched = isAsciiDigit(intPart[0]) && allOf(intPart, "0123456789_") && fracOk && expOk;
    } else {
      // \.[0-9_]+(?:[eE][-+][0-9]+)? — PyYAML allows no sign here
      matched = &text[0] == &s[0] && !frac.empty() && fracOk && expOk;
    }
  } else {
    // AI Toolkit's extra resolver: [-+]?[0-9][0-9_]*[eE][-+]?[0-9]+ ("1e-4")
    std::size_t e = s.find_first_of("eE");
    matched = e != std::string_view::npos && e > 0 && isAsciiDigit(s[0]) && allOf(s.substr(0, e), "0123456789_") &&
              exponent(s.substr(e), /*signRequired=*/false);
  }
  if (!matched) return false;
  out = std::strtod(withoutUnderscores(text).c_str(), nullptr);
  return true;
}

}  // namespace

void resolveScalar(Node& node) {
  node.kind = NodeKind::Scalar;
  const std::string_view text = node.text;
  if (node.quoted) {
    node.type = ScalarType::String;
    return;
  }
  if (oneOf(text, {"", "~", "null", "Null", "NULL"})) {
    node.type = ScalarType::Null;
  } else if (oneOf(text, {"yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"})) {
    node.type = ScalarType::Bool;
    node.boolValue = true;
  } else if (oneOf(text, {"no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"})) {
    node.type = ScalarType::Bool;
    node.boolValue = false;
  } else if (resolveInt(text, node.intValue)) {
    node.type = ScalarType::Int;
  } else if (resolveFloat(text, node.floatValue)) {
    node.type = ScalarType::Float;
  } else {
    node.type = ScalarType::String;
  }
}

void applyExplicitTag(Node& node, std::string_view tag) {
  if (tag == "tag:yaml.org,2002:str" || tag == "!!str") {
    node.type = ScalarType::String;
    return;
  }
  Node probe = node;
  probe.quoted = false;
  resolveScalar(probe);
  auto adopt = [&](ScalarType wanted) {
    if (probe.type == wanted) {
      node.type = probe.type;
      node.boolValue = probe.boolValue;
      node.intValue = probe.intValue;
      node.floatValue = probe.floatValue;
    }
  };
  if (tag == "tag:yaml.org,2002:int" || tag == "!!int") adopt(ScalarType::Int);
  if (tag == "tag:yaml.org,2002:float" || tag == "!!float") {
    if (probe.type == ScalarType::Int) {
      node.type = ScalarType::Float;
      node.floatValue = static_cast<double>(probe.intValue);
    } else {
      adopt(ScalarType::Float);
    }
  }
  if (tag == "tag:yaml.org,2002:bool" || tag == "!!bool") adopt(ScalarType::Bool);
  if (tag == "tag:yaml.org,2002:null" || tag == "!!null") adopt(ScalarType::Null);
}

}  // namespace oomlint
