// The one kind of change: a Fix is a setting's new value together with the text edits that write it
// into the input. Findings and plan steps both carry one; `oomlint fix`, SARIF and the page apply its
// edits as they are, and engine/edits.h is the one place that makes or applies them.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "base/document/key_path.h"
#include "base/text/source_text.h"

namespace oomlint {

// Replace `range` of the input's text by `text` (an insertion when the range is empty).
struct Edit {
  Range range;
  std::string text;
};

struct Fix {
  Fix() = default;
  // A value change not yet placed in the text (the system places it once, with engine/edits).
  Fix(KeyPath path, std::string fromJson, std::string toJson)
      : path(std::move(path)), fromJson(std::move(fromJson)), toJson(std::move(toJson)) {}

  KeyPath path;          // the setting it changes (a launch line's is `args`)
  std::string fromJson;  // the value now and after, as JSON texts ("4", "true", "\"bf16\"")
  std::string toJson;
  // The change in the input's text, applied together. Empty when the input has no place for it
  // (`unplaced` says why): the value is then advice only.
  std::vector<Edit> edits;
  std::string unplaced;
};

}  // namespace oomlint
