#include "base/knowledge/trainer_args.h"

#include <algorithm>
#include <type_traits>

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

KnowledgeText TrainerTool::text(const Spelling& s) const {
  const TrainerArg& arg = groups[static_cast<std::size_t>(s.group)].args[static_cast<std::size_t>(s.arg)];
  return s.alias == 0 ? arg.name : arg.aliases[static_cast<std::size_t>(s.alias - 1)];
}

void TrainerTool::index() {
  spellings.clear();
  for (std::size_t g = 0; g < groups.size(); ++g) {
    for (std::size_t a = 0; a < groups[g].args.size(); ++a) {
      for (std::size_t n = 0; n <= groups[g].args[a].aliases.size(); ++n) {
        spellings.push_back({static_cast<int>(g), static_cast<int>(a), static_cast<int>(n)});
      }
    }
  }
  std::stable_sort(spellings.begin(), spellings.end(), [&](const Spelling& x, const Spelling& y) { return text(x) < text(y); });
}

const TrainerArg* TrainerTool::arg(const TrainerScript& script, std::string_view name) const {
  // Of the groups that spell it so, the script's first wins; within a group, its first argument.
  const auto [from, to] = std::equal_range(spellings.begin(), spellings.end(), name, [&](const auto& x, const auto& y) {
    if constexpr (std::is_same_v<std::decay_t<decltype(x)>, Spelling>) return std::string_view(text(x)) < y;
    else return x < std::string_view(text(y));
  });
  const Spelling* best = nullptr;
  std::size_t bestRank = script.groups.size();
  for (auto it = from; it != to; ++it) {
    const auto rank = static_cast<std::size_t>(std::find(script.groups.begin(), script.groups.end(), it->group) - script.groups.begin());
    if (rank < bestRank) best = &*it, bestRank = rank;
  }
  return best ? &groups[static_cast<std::size_t>(best->group)].args[static_cast<std::size_t>(best->arg)] : nullptr;
}

std::vector<std::string> TrainerTool::argNames(const TrainerScript& script) const {
  std::vector<std::string> names;
  for (int g : script.groups) {
    for (const auto& a : groups[static_cast<std::size_t>(g)].args) names.push_back(a.name);
  }
  return names;
}

}  // namespace oomlint
