// Where an input shows that its job runs on Windows: a path on a drive or a network share. NVIDIA's Windows driver
// then spills what the card cannot hold into system memory instead of failing (OL506).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/document/key_path.h"
#include "base/document/node.h"

namespace oomlint {

struct WindowsEvidence {
  Range range;
  KeyPath path;
  std::string text;  // the path as written
};

// `C:\data`, `d:/models`, `\\nas\share`: a drive letter and a separator, or a share's double backslash.
bool isWindowsPath(std::string_view text);

// The first Windows path among the string values under `node` (in document order), `at` being node's own path.
std::optional<WindowsEvidence> windowsPathUnder(const Node* node, const KeyPath& at);

}  // namespace oomlint
