// JSON written as it goes, for every JSON the core returns (the report, the module's replies). No tree
// is built: the report's JSON was a DOM of its own before, and the library behind it was 38 KB of the
// WebAssembly module and a sixth of the functions its first analysis compiles.
//
// The bytes are those nlohmann::json's dump() wrote, which the contract's readers and the golden files
// were made from: `indent` 2 puts one member per line ("key": value), -1 writes nothing between tokens;
// an empty object or array stays {} or []; strings keep UTF-8 as it is (invalid bytes become U+FFFD),
// control characters escaped; a double is its shortest round-tripping digits, fixed between 1e-5 and
// 1e15 with at least one decimal ("1.0"), otherwise "1e+20" / "2.5e-07".
#pragma once

#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace oomlint {

struct Node;

class JsonWriter {
 public:
  explicit JsonWriter(int indent = -1) : indent_(indent) {}

  JsonWriter& beginObject() { return open('{'); }
  JsonWriter& endObject() { return close('}'); }
  JsonWriter& beginArray() { return open('['); }
  JsonWriter& endArray() { return close(']'); }
  JsonWriter& key(std::string_view name);

  JsonWriter& value(std::string_view text);
  JsonWriter& value(const std::string& text) { return value(std::string_view(text)); }
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(bool b);
  JsonWriter& value(std::nullptr_t);
  JsonWriter& value(double number);
  template <std::integral T>
    requires(!std::same_as<T, bool>)
  JsonWriter& value(T number) {
    if constexpr (std::is_signed_v<T>) {
      return integer(number < 0 ? 0 - static_cast<std::uint64_t>(number) : static_cast<std::uint64_t>(number), number < 0);
    } else {
      return integer(number, false);
    }
  }
  template <class T>
  JsonWriter& value(const std::optional<T>& v) {
    return v ? value(*v) : value(nullptr);
  }
  template <class T>
  JsonWriter& value(const std::vector<T>& items) {
    beginArray();
    for (const auto& item : items) value(item);
    return endArray();
  }
  // A parsed document's value: mappings as objects, sequences as arrays, scalars as their type.
  JsonWriter& value(const Node* node);
  // A JSON text (a fix's "4", "\"bf16\"", a widget's [1024, 768]) as its value, laid out like the rest;
  // text that is not one JSON value is written as a string.
  JsonWriter& jsonValue(std::string_view jsonText);

  template <class T>
  JsonWriter& field(std::string_view name, const T& v) {
    key(name);
    return value(v);
  }

  std::string take() { return std::move(out_); }

 private:
  JsonWriter& open(char bracket);
  JsonWriter& close(char bracket);
  JsonWriter& integer(std::uint64_t magnitude, bool negative);
  JsonWriter& literal(std::string_view text);
  void beforeValue();
  void newline(std::size_t depth);

  int indent_;
  std::string out_;
  std::vector<std::size_t> counts_;  // members written so far, per open container
  bool afterKey_ = false;
};

// `text` as a JSON string literal, quotes included (no indentation to follow).
std::string jsonString(std::string_view text);

}  // namespace oomlint
