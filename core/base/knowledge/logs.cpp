#include "base/knowledge/logs.h"

#include <algorithm>

namespace oomlint {

namespace {

bool found(std::string_view text, std::string_view word) { return text.find(word) != std::string_view::npos; }

}  // namespace

bool LineTest::matches(std::string_view line, const LiteralSet::Found& words) const {
  return std::any_of(containsIds.begin(), containsIds.end(), [&](LiteralSet::Id id) { return words.has(id); }) ||
         std::any_of(startsWith.begin(), startsWith.end(), [&](std::string_view w) { return line.starts_with(w); }) ||
         std::any_of(endsWith.begin(), endsWith.end(), [&](std::string_view w) { return line.ends_with(w); }) ||
         std::any_of(equals.begin(), equals.end(), [&](std::string_view w) { return line == w; });
}

bool LineTest::matches(std::string_view text) const {
  return std::any_of(contains.begin(), contains.end(), [&](std::string_view w) { return found(text, w); }) ||
         std::any_of(startsWith.begin(), startsWith.end(), [&](std::string_view w) { return text.starts_with(w); }) ||
         std::any_of(endsWith.begin(), endsWith.end(), [&](std::string_view w) { return text.ends_with(w); }) ||
         std::any_of(equals.begin(), equals.end(), [&](std::string_view w) { return text == w; });
}

namespace {
std::size_t rankIn(const std::vector<ToolSign>& signs, std::string_view tool) {
  for (std::size_t i = 0; i < signs.size(); ++i) {
    if (signs[i].tool == tool) return i;
  }
  return signs.size();
}
}  // namespace

std::size_t LogMarkers::toolRank(std::string_view tool) const { return rankIn(toolSigns, tool); }
std::size_t LogMarkers::trainerRank(std::string_view trainer) const { return rankIn(trainerSigns, trainer); }

}  // namespace oomlint
