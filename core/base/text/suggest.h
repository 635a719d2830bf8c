// "Did you mean …?": the closest known name to a misspelt one.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace oomlint {

// Damerau-Levenshtein (optimal string alignment) distance, case-insensitive.
int editDistance(std::string_view a, std::string_view b);

// The candidate closest to `word`, if it is close enough to be a plausible typo: within a third of
// the word's length (at least 1, at most 3 edits), or `word` is a prefix/extension of it.
std::optional<std::string> closestMatch(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace oomlint
