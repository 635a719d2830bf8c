#include "base/text/suggest.h"

#include <algorithm>

#include "base/text/ascii.h"

namespace oomlint {

int editDistance(std::string_view a, std::string_view b) {
  const std::size_t n = a.size();
  const std::size_t m = b.size();
  // Three rolling rows are enough for the transposition case.
  std::vector<int> prev2(m + 1), prev(m + 1), cur(m + 1);
  for (std::size_t j = 0; j <= m; ++j) prev[j] = static_cast<int>(j);
  for (std::size_t i = 1; i <= n; ++i) {
    cur[0] = static_cast<int>(i);
    for (std::size_t j = 1; j <= m; ++j) {
      const int cost = asciiLower(a[i - 1]) == asciiLower(b[j - 1]) ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && asciiLower(a[i - 1]) == asciiLower(b[j - 2]) && asciiLower(a[i - 2]) == asciiLower(b[j - 1])) {
        cur[j] = std::min(cur[j], prev2[j - 2] + 1);
      }
    }
    std::swap(prev2, prev);
    std::swap(prev, cur);
  }
  return prev[m];
}

std::optional<std::string> closestMatch(std::string_view word, const std::vector<std::string>& candidates) {
  if (word.empty() || word.size() > 64) return std::nullopt;
  const int budget = std::clamp(static_cast<int>(word.size()) / 3, 1, 3);
  std::optional<std::string> best;
  int bestDistance = budget + 1;
  for (const auto& candidate : candidates) {
    int d = editDistance(word, candidate);
    // A truncated or extended name ("gradient_checkpoint" for "gradient_checkpointing") is a typo
    // even when the edit distance is large.
    const bool affix = word.size() >= 4 && candidate.size() >= 4 &&
                       (candidate.starts_with(word) || word.starts_with(candidate));
    if (affix) d = std::min(d, budget);
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  return best;
}

}  // namespace oomlint
