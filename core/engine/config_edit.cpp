#include "engine/config_edit.h"

#include <algorithm>

#include "systems/aitk/job.h"

namespace oomlint {

namespace {

// The mapping at `path` (a section such as config.process[0].train), or nullptr.
const Node* sectionAt(const Node* root, std::string_view path) {
  const Node* node = valueAtPath(root, path);
  return node && node->isMapping() ? node->resolved() : nullptr;
}

std::string lineEnding(const std::string& text) { return text.find("\r\n") != std::string::npos ? "\r\n" : "\n"; }

// A new `key: value` entry at the end of a mapping, formatted like its siblings.
std::optional<TextEdit> insertion(const Document& doc, const Node* map, const std::string& key, const std::string& json) {
  const std::string& text = doc.source().text();
  const bool isJson = doc.format() == DocumentFormat::Json;
  if (map->entries.empty()) return std::nullopt;
  const MapEntry& last = map->entries.back();
  const MapEntry& first = map->entries.front();
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
    return TextEdit{last.value->range.end.offset, last.value->range.end.offset, insert};
  }
  // Block mapping: a new line after the last entry's value, indented like the first key.
  const int indent = first.key->range.start.column - 1;
  std::size_t at = last.value->range.end.offset;
  while (at < text.size() && text[at] != '\n' && text[at] != '\r') ++at;  // keep a trailing comment on its line
  return TextEdit{at, at, lineEnding(text) + std::string(static_cast<std::size_t>(indent), ' ') + key + ": " + json};
}

}  // namespace

std::optional<TextEdit> editFor(const Document& doc, const ValueChange& change, std::string* why) {
  if (const Node* value = valueAtPath(doc.root(), change.path)) {
    // JSON values are valid YAML flow values, so the same text serves both formats. An empty YAML
    // value (`key:`) has a zero-width range just after its colon.
    const bool empty = value->range.end.offset == value->range.start.offset;
    return TextEdit{value->range.start.offset, value->range.end.offset, (empty ? " " : "") + change.toJson};
  }
  const std::size_t dot = change.path.rfind('.');
  const std::string parent = change.path.substr(0, dot);
  const std::string key = change.path.substr(dot + 1);
  const Node* section = sectionAt(doc.root(), parent);
  auto insert = section ? insertion(doc, section, key, change.toJson) : std::nullopt;
  if (!insert && why) *why = change.path + ": no `" + parent + "` section to add it to";
  return insert;
}

EditResult applyChanges(const Document& doc, const std::vector<ValueChange>& changes) {
  EditResult result;
  std::vector<TextEdit> edits;
  for (const auto& change : changes) {
    std::string why;
    if (auto edit = editFor(doc, change, &why)) {
      edits.push_back(std::move(*edit));
    } else {
      result.skipped.push_back(why);
    }
  }
  // Apply from the end so earlier offsets stay valid; insertions at the same place keep their order.
  std::stable_sort(edits.begin(), edits.end(), [](const TextEdit& a, const TextEdit& b) { return a.begin > b.begin; });
  result.text = doc.source().text();
  for (const auto& e : edits) result.text.replace(e.begin, e.end - e.begin, e.text);
  return result;
}

}  // namespace oomlint
