#include "base/knowledge/trainer_args.h"

#include <algorithm>

namespace oomlint {

const TrainerScript* TrainerTool::scriptNamed(std::string_view name) const {
  for (const auto& s : scripts) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

const TrainerScript* TrainerTool::script(std::string_view path) const {
  const std::size_t slash = path.find_last_of("/\\");
  return scriptNamed(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

void TrainerTool::index() {
  for (auto& script : scripts) {
    script.accepted.clear();
    for (const auto& id : script.groups) {
      for (const auto& group : groups) {
        if (group.id != id) continue;
        for (const auto& a : group.args) {
          script.accepted.try_emplace(a.name, &a);
          for (const auto& alias : a.aliases) script.accepted.try_emplace(alias, &a);
        }
      }
    }
  }
}

const TrainerArg* TrainerTool::arg(const TrainerScript& script, std::string_view name) const {
  const auto it = script.accepted.find(std::string(name));
  return it == script.accepted.end() ? nullptr : it->second;
}

std::vector<std::string> TrainerTool::argNames(const TrainerScript& script) const {
  std::vector<std::string> names;
  for (const auto& id : script.groups) {
    for (const auto& group : groups) {
      if (group.id != id) continue;
      for (const auto& a : group.args) names.push_back(a.name);
    }
  }
  return names;
}

}  // namespace oomlint
