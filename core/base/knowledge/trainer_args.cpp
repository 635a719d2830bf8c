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

const std::string& TrainerTool::spelling(const TrainerScript::Accepted& a) const {
  const TrainerArg& arg = groups[static_cast<std::size_t>(a.group)].args[static_cast<std::size_t>(a.arg)];
  return a.spelling == 0 ? arg.name : arg.aliases[static_cast<std::size_t>(a.spelling - 1)];
}

void TrainerTool::index() {
  for (auto& script : scripts) {
    script.accepted.clear();
    for (const auto& id : script.groups) {
      for (std::size_t g = 0; g < groups.size(); ++g) {
        if (groups[g].id != id) continue;
        for (std::size_t a = 0; a < groups[g].args.size(); ++a) {
          for (std::size_t s = 0; s <= groups[g].args[a].aliases.size(); ++s) {
            script.accepted.push_back({static_cast<int>(g), static_cast<int>(a), static_cast<int>(s)});
          }
        }
      }
    }
    // Sorted by spelling, the first definition of each kept (stable: in group order).
    auto& list = script.accepted;
    const auto bySpelling = [&](const auto& x, const auto& y) { return spelling(x) < spelling(y); };
    std::stable_sort(list.begin(), list.end(), bySpelling);
    list.erase(std::unique(list.begin(), list.end(), [&](const auto& x, const auto& y) { return spelling(x) == spelling(y); }), list.end());
  }
}

const TrainerArg* TrainerTool::arg(const TrainerScript& script, std::string_view name) const {
  const auto& list = script.accepted;
  const auto at = std::lower_bound(list.begin(), list.end(), name,
                                   [&](const TrainerScript::Accepted& a, std::string_view n) { return spelling(a) < n; });
  if (at == list.end() || spelling(*at) != name) return nullptr;
  return &groups[static_cast<std::size_t>(at->group)].args[static_cast<std::size_t>(at->arg)];
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
