// The knowledge as C++ constant tables (knowledge_tape.h): what the rules compiler writes.
#pragma once

#include <string>

#include "base/knowledge/knowledge.h"

namespace oomlint::rules {

// The source of knowledge_tables.cpp: knowledgeTape() over `k`'s values.
std::string knowledgeTables(Knowledge& k);

}  // namespace oomlint::rules
