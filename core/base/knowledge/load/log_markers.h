// rules/logs.yaml's tables, read at build time (rules/compiler).
#pragma once

#include <string>
#include <vector>

#include "base/knowledge/logs.h"

namespace oomlint {

struct Node;

// Fills `markers` from the file's root; returns what the C++ cannot use (an unknown id, a word that
// can never match).
std::vector<std::string> readLogMarkers(const Node* root, LogMarkers& markers, KnowledgeTextStore& kept);

}  // namespace oomlint
