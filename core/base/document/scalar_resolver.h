// Types a plain YAML scalar the way AI Toolkit's loader does: PyYAML's SafeLoader (YAML 1.1
// resolvers) plus AI Toolkit's extra float resolver, so `1e-4` is a float and `yes` a boolean.
#pragma once

#include <string_view>

#include "base/document/node.h"

namespace oomlint {

// Fills node.type and the typed value from node.text. Quoted scalars are always strings.
void resolveScalar(Node& node);

// A YAML tag given explicitly (`!!int 3`, `!!str yes`) overrides the implicit resolution.
void applyExplicitTag(Node& node, std::string_view tag);

}  // namespace oomlint
