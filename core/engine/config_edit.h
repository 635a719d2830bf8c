// Writes changes into the config text at exact byte ranges, touching nothing else: comments, key
// order, quoting and line endings stay as they were (what `oomlint fix` promises).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/document/node.h"

namespace oomlint {

struct ValueChange {
  std::string path;    // config.process[0].train.batch_size
  std::string toJson;  // the new value as JSON text ("1", "true", "[512, 768]")
};

// One change as a replacement of the bytes [begin, end) of the source.
struct TextEdit {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string text;
};

// The edit that writes `change` into the document: the value replaced where the key exists, else a
// new entry at the end of its section. nullopt (with the reason in `why`) when there is no section.
std::optional<TextEdit> editFor(const Document& doc, const ValueChange& change, std::string* why = nullptr);

struct EditResult {
  std::string text;                  // the edited config
  std::vector<std::string> skipped;  // changes that could not be placed, with the reason
};

EditResult applyChanges(const Document& doc, const std::vector<ValueChange>& changes);

}  // namespace oomlint
