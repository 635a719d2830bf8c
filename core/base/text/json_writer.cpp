#include "base/text/json_writer.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <memory>

#include "base/document/node.h"
#include "base/document/reader.h"
#include "base/text/decimal_text.h"
#include "base/text/source_text.h"

namespace oomlint {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// How many bytes of a well-formed UTF-8 sequence start at `s[i]`, or 0 where it is not one; `bad` is
// then where it goes wrong (the lead byte: 0), the byte read again after the replacement character.
std::size_t utf8Length(std::string_view s, std::size_t i, std::size_t& bad) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char lead = byte(0);
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the second byte's range, narrowed against overlongs and surrogates
  if (lead >= 0xC2 && lead <= 0xDF) n = 2;
  else if (lead >= 0xE0 && lead <= 0xEF) n = 3, lo = lead == 0xE0 ? 0xA0 : 0x80, hi = lead == 0xED ? 0x9F : 0xBF;
  else if (lead >= 0xF0 && lead <= 0xF4) n = 4, lo = lead == 0xF0 ? 0x90 : 0x80, hi = lead == 0xF4 ? 0x8F : 0xBF;
  bad = 0;
  if (n == 0) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    const bool inRange = i + k < s.size() && byte(k) >= (k == 1 ? lo : 0x80) && byte(k) <= (k == 1 ? hi : 0xBF);
    if (!inRange) {
      bad = k;
      return 0;
    }
  }
  return n;
}

void appendEscaped(std::string& out, std::string_view s) {
  out += '"';
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      std::size_t bad = 0;
      if (const std::size_t n = utf8Length(s, i, bad)) {
        out.append(s, i, n);
        i += n;
      } else {
        out += kReplacement;
        i += bad == 0 ? 1 : bad;
      }
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          out += "\\u" + hexText(c, 4);
        } else {
          out += static_cast<char>(c);
        }
    }
    ++i;
  }
  out += '"';
}

void appendDouble(std::string& out, double x) {
  if (!std::isfinite(x)) {
    out += "null";
    return;
  }
  if (std::signbit(x)) out += '-';
  x = std::fabs(x);
  if (x == 0) {
    out += "0.0";
    return;
  }
  const auto [digits, n] = shortestDigits(x);  // x = 0.DIGITS × 10^n
  const int k = static_cast<int>(digits.size());
  constexpr int kMinExp = -4, kMaxExp = 15;  // fixed notation for 1e-5 < x < 1e15
  if (k <= n && n <= kMaxExp) {
    out += digits;
    out.append(static_cast<std::size_t>(n - k), '0');
    out += ".0";
  } else if (0 < n && n <= kMaxExp) {
    out.append(digits, 0, static_cast<std::size_t>(n));
    out += '.';
    out.append(digits, static_cast<std::size_t>(n));
  } else if (kMinExp < n && n <= 0) {
    out += "0.";
    out.append(static_cast<std::size_t>(-n), '0');
    out += digits;
  } else {
    out += digits[0];
    if (k > 1) {
      out += '.';
      out.append(digits, 1);
    }
    out += exponentText(n - 1);
  }
}

// An integer wider than 64 bits (read as the nearest int64) is written as it was written: Python and
// JSON keep it exact.
bool wide(const Node* v) {
  if (v->intValue != std::numeric_limits<std::int64_t>::max() && v->intValue != std::numeric_limits<std::int64_t>::min()) return false;
  std::string_view s = v->text;
  if (s.starts_with('-')) s.remove_prefix(1);
  return !s.empty() && s[0] != '0' && s.find_first_not_of("0123456789") == std::string_view::npos;
}

}  // namespace

std::string jsonString(std::string_view text) {
  std::string out;
  appendEscaped(out, text);
  return out;
}

void JsonWriter::newline(std::size_t depth) {
  if (indent_ < 0) return;
  out_ += '\n';
  out_.append(depth * static_cast<std::size_t>(indent_), ' ');
}

// A value in an array takes its separator here; an object's took it with its key.
void JsonWriter::beforeValue() {
  if (afterKey_) {
    afterKey_ = false;
    return;
  }
  if (counts_.empty()) return;
  if (counts_.back()++ > 0) out_ += ',';
  newline(counts_.size());
}

JsonWriter& JsonWriter::open(char bracket) {
  beforeValue();
  out_ += bracket;
  counts_.push_back(0);
  return *this;
}

JsonWriter& JsonWriter::close(char bracket) {
  const bool any = counts_.back() > 0;
  counts_.pop_back();
  if (any) newline(counts_.size());
  out_ += bracket;
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
  if (counts_.back()++ > 0) out_ += ',';
  newline(counts_.size());
  appendEscaped(out_, name);
  out_ += indent_ < 0 ? ":" : ": ";
  afterKey_ = true;
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view text) {
  beforeValue();
  appendEscaped(out_, text);
  return *this;
}

JsonWriter& JsonWriter::value(bool b) {
  beforeValue();
  out_ += b ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::value(std::nullptr_t) {
  beforeValue();
  out_ += "null";
  return *this;
}

JsonWriter& JsonWriter::value(double number) {
  beforeValue();
  appendDouble(out_, number);
  return *this;
}

JsonWriter& JsonWriter::literal(std::string_view text) {
  beforeValue();
  out_ += text;
  return *this;
}

JsonWriter& JsonWriter::integer(std::uint64_t magnitude, bool negative) {
  beforeValue();
  if (negative) out_ += '-';
  char buf[24];
  const auto end = std::to_chars(buf, buf + sizeof buf, magnitude).ptr;
  out_.append(buf, end);
  return *this;
}

JsonWriter& JsonWriter::value(const Node* node) {
  const Node* v = node ? node->resolved() : nullptr;
  if (v == nullptr || v->kind == NodeKind::Null) return value(nullptr);
  if (v->kind == NodeKind::Mapping) {
    beginObject();
    for (const auto& entry : v->allEntries()) field(entry.key->resolved()->text, entry.value);
    return endObject();
  }
  if (v->kind == NodeKind::Sequence) {
    beginArray();
    for (const Node* item : v->items) value(item);
    return endArray();
  }
  switch (v->type) {
    case ScalarType::Null: return value(nullptr);
    case ScalarType::Bool: return value(v->boolValue);
    case ScalarType::Int: return wide(v) ? literal(v->text) : value(v->intValue);
    case ScalarType::Float: return value(v->floatValue);
    case ScalarType::String: break;
  }
  return value(v->text);
}

JsonWriter& JsonWriter::jsonValue(std::string_view jsonText) {
  const auto doc = readJson(std::make_shared<SourceText>(std::string(jsonText)), ReadLimits{});
  if (!doc->problems().empty() || doc->root() == nullptr) return value(jsonText);
  return value(doc->root());  // a NaN or Infinity, which json.loads reads, is written as null
}

}  // namespace oomlint
