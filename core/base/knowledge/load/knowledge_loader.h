// Build time only: the rules compiler reads the rules/ YAML files into a Knowledge with this, then
// writes that Knowledge as constant tables (knowledge_tape.h), so start-up parses nothing.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/knowledge/knowledge.h"

namespace oomlint {

struct Node;

// A rules/ file's parsed root by its path ("rules/gpus.yaml"); null when it was not given. The nodes
// must outlive the load only: what the knowledge keeps is copied.
using RulesFile = std::function<const Node*(std::string_view path)>;

// Problems that the schemas cannot see (an unknown arch, a family no table has) go to `errors`.
std::unique_ptr<Knowledge> loadKnowledge(const RulesFile& file, std::vector<std::string>& errors);

}  // namespace oomlint
