// Writes changes into the config text at exact byte ranges, touching nothing else: comments, key
// order, quoting and line endings stay as they were (what `oomlint fix` promises).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "document/node.h"

namespace oomlint {

struct ValueChange {
  std::string path;    // config.process[0].train.batch_size
  std::string toJson;  // the new value as JSON text ("1", "true", "[512, 768]")
};

struct EditResult {
  std::string text;                  // the edited config
  std::vector<std::string> skipped;  // changes that could not be placed, with the reason
};

EditResult applyChanges(const Document& doc, const std::vector<ValueChange>& changes);

}  // namespace oomlint
