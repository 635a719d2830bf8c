// "Did you mean …?": the closest known name to a misspelt one.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace oomlint {

// Damerau-Levenshtein (optimal string alignment) distance, case-insensitive.
int editDistance(std::string_view a, std::string_view b);

// The candidate closest to `word`, if it is close enough to be a plausible typo: within a third of
// the word's length (at least 1, at most 3 edits), or `word` is a prefix/extension of it. `candidates`: a
// range of strings or views.
template <class Candidates>
std::optional<std::string> closestMatch(std::string_view word, const Candidates& candidates) {
  if (word.empty() || word.size() > 64) return std::nullopt;
  const int budget = std::clamp(static_cast<int>(word.size()) / 3, 1, 3);
  std::optional<std::string> best;
  int bestDistance = budget + 1;
  for (const auto& candidate : candidates) {
    const std::string_view name = candidate;
    int d = editDistance(word, name);
    // A truncated or extended name ("gradient_checkpoint" for "gradient_checkpointing") is a typo
    // even when the edit distance is large.
    const bool affix = word.size() >= 4 && name.size() >= 4 && (name.starts_with(word) || word.starts_with(name));
    if (affix) d = std::min(d, budget);
    if (d < bestDistance) {
      bestDistance = d;
      best = std::string(name);
    }
  }
  return best;
}

}  // namespace oomlint
