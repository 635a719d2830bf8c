#include "engine/edits.h"

#include <algorithm>
#include <memory>

#include "base/document/reader.h"
#include "base/text/ascii.h"
#include "base/text/source_text.h"

namespace oomlint {

namespace {

std::string lineEnding(const std::string& text) { return text.find("\r\n") != std::string::npos ? "\r\n" : "\n"; }

// A string YAML reads back as the same string when written without quotes: a word that is not one of
// YAML 1.1's booleans or nulls (AI Toolkit's loader is PyYAML) and cannot be a number.
bool plainSafe(std::string_view s) {
  if (s.empty() || !isAsciiAlpha(s.front())) return false;
  for (char c : s) {
    if (!isAsciiAlnum(c) && c != '_' && c != '-' && c != '.' && c != '/') return false;
  }
  const std::string lower = lowercase(s);
  for (std::string_view special : {"true", "false", "yes", "no", "on", "off", "y", "n", "null"}) {
    if (lower == special) return false;
  }
  return true;
}

// The new value's text where `old` is written: a plain YAML string keeps its style.
std::string valueText(const Document& doc, const Node* old, const std::string& toJson) {
  const Node* v = old->resolved();
  const bool plainString = doc.format() == DocumentFormat::Yaml && v->kind == NodeKind::Scalar &&
                           v->type == ScalarType::String && !v->quoted;
  if (plainString) {
    const auto to = readJson(std::make_shared<SourceText>(toJson), ReadLimits{});
    const Node* v = to->problems().empty() ? to->root() : nullptr;
    if (v && v->isScalar() && v->resolved()->type == ScalarType::String && plainSafe(v->resolved()->text)) return v->resolved()->text;
  }
  return toJson;
}

// A new `key: value` entry at the end of a mapping, formatted like its siblings.
std::optional<Edit> insertion(const Document& doc, const Node* map, const std::string& key, const std::string& json) {
  const std::string& text = doc.source().text();
  const bool isJson = doc.format() == DocumentFormat::Json;
  if (map->entries.empty()) return std::nullopt;
  const MapEntry& last = map->entries.back();
  const MapEntry& first = map->entries.front();
  const std::size_t end = last.value->range.end.offset;
  if (map->flowStyle) {
    // {a: 1} or JSON: after the last value, on its own line when the siblings are on their own lines.
    const bool multiline = first.key->range.start.line != map->range.start.line;
    const std::string quotedKey = isJson ? "\"" + key + "\"" : key;
    std::string insert = ",";
    if (multiline) {
      const std::size_t lineStart = doc.source().lineStart(first.key->range.start.line);
      insert += lineEnding(text) + text.substr(lineStart, first.key->range.start.offset - lineStart);
    } else {
      insert += " ";
    }
    insert += quotedKey + ": " + json;
    return Edit{doc.source().rangeOf(end, end), insert};
  }
  // Block mapping: a new line after the last entry's value, indented like the first key.
  const int indent = first.key->range.start.column - 1;
  std::size_t at = end;
  while (at < text.size() && text[at] != '\n' && text[at] != '\r') ++at;  // keep a trailing comment on its line
  return Edit{doc.source().rangeOf(at, at), lineEnding(text) + std::string(static_cast<std::size_t>(indent), ' ') + key + ": " + json};
}

// A new `key = value` line in a TOML table: after its last inline-written entry, indented like it; in a
// table with none, right after its header (the root table: at the top of the file). A table made by a
// dotted key (`a.b = 1`) has no line of its own: nullopt.
std::optional<Edit> tomlInsertion(const Document& doc, const Node* table, const std::string& key, const std::string& json) {
  const std::string& text = doc.source().text();
  const std::string eol = lineEnding(text);
  if (table->flowStyle) return std::nullopt;  // an inline table {…}: rewriting it is not minimal
  const MapEntry* last = nullptr;
  for (const MapEntry& entry : table->entries) {
    const Node* v = entry.value;
    const bool inlineWritten = v->kind == NodeKind::Scalar || v->flowStyle;
    if (inlineWritten && entry.key->range.start.line == v->range.start.line) last = &entry;
  }
  if (last != nullptr) {
    std::size_t at = last->value->range.end.offset;
    while (at < text.size() && text[at] != '\n' && text[at] != '\r') ++at;
    const std::size_t lineStart = doc.source().lineStart(last->key->range.start.line);
    std::size_t indent = lineStart;
    while (indent < text.size() && (text[indent] == ' ' || text[indent] == '\t')) ++indent;
    return Edit{doc.source().rangeOf(at, at), eol + text.substr(lineStart, indent - lineStart) + key + " = " + json};
  }
  const Range header = table->range;
  if (header.start.offset == header.end.offset) {
    if (table != doc.root()) return std::nullopt;
    return Edit{header, key + " = " + json + eol};
  }
  std::size_t at = header.end.offset;
  while (at < text.size() && text[at] != '\n' && text[at] != '\r') ++at;
  return Edit{doc.source().rangeOf(at, at), eol + key + " = " + json};
}

}  // namespace

std::optional<Edit> editFor(const Document& doc, const KeyPath& path, const std::string& toJson, std::string* why) {
  if (const Node* value = valueAtPath(doc.root(), path)) {
    // An empty YAML value (`key:`) has a zero-width range just after its colon.
    const bool empty = value->range.end.offset == value->range.start.offset;
    return Edit{value->range, (empty ? " " : "") + valueText(doc, value, toJson)};
  }
  const std::string_view key = path.lastKey();
  const Node* section = key.empty() ? nullptr : valueAtPath(doc.root(), path.parent());
  std::optional<Edit> insert;
  if (section && section->isMapping()) {
    insert = doc.format() == DocumentFormat::Toml ? tomlInsertion(doc, section->resolved(), std::string(key), toJson)
                                                  : insertion(doc, section->resolved(), std::string(key), toJson);
  }
  if (!insert && why) *why = path.toString() + ": no `" + path.parent().toString() + "` section to add it to";
  return insert;
}

void placeFix(const Document& doc, Fix& fix) {
  fix.edits.clear();
  fix.unplaced.clear();
  if (auto edit = editFor(doc, fix.path, fix.toJson, &fix.unplaced)) fix.edits.push_back(std::move(*edit));
}

void placeFixes(const Document& doc, std::vector<PlanStep>& plan, std::vector<Diagnostic>& diagnostics) {
  for (auto& step : plan) placeFix(doc, step.fix);
  for (auto& d : diagnostics) {
    if (d.fix) placeFix(doc, *d.fix);
  }
}

std::string applyEdits(std::string text, std::vector<Edit> edits) {
  // From the end so earlier offsets stay valid; insertions at one place go in last first, so they keep
  // their order.
  std::reverse(edits.begin(), edits.end());
  std::stable_sort(edits.begin(), edits.end(),
                   [](const Edit& a, const Edit& b) { return a.range.start.offset > b.range.start.offset; });
  for (const auto& e : edits) {
    const std::size_t begin = e.range.start.offset, end = e.range.end.offset;
    if (begin <= end && end <= text.size()) text.replace(begin, end - begin, e.text);
  }
  return text;
}

}  // namespace oomlint
