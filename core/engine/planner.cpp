#include "engine/planner.h"

namespace oomlint {

namespace {

constexpr std::size_t kMaxSearchedSteps = 12;  // 4095 subsets at most; real plans have fewer steps

// The first subset of `size` steps, in lexicographic order of their indices, that fits.
std::optional<std::vector<std::size_t>> firstFitting(std::size_t n, std::size_t size,
                                                     const std::function<bool(const std::vector<std::size_t>&)>& fitsWith) {
  std::vector<std::size_t> pick(size);
  for (std::size_t i = 0; i < size; ++i) pick[i] = i;
  while (true) {
    if (fitsWith(pick)) return pick;
    std::size_t k = size;
    while (k > 0 && pick[k - 1] == n - size + k - 1) --k;
    if (k == 0) return std::nullopt;
    ++pick[k - 1];
    for (std::size_t j = k; j < size; ++j) pick[j] = pick[j - 1] + 1;
  }
}

}  // namespace

void markNeededSteps(std::vector<PlanStep>& steps, const std::function<bool(const std::vector<std::size_t>&)>& fitsWith) {
  const std::size_t n = steps.size();
  for (std::size_t i = 0; i < n; ++i) {
    steps[i].rank = static_cast<int>(i) + 1;
    steps[i].needed = true;
  }
  if (n == 0 || n > kMaxSearchedSteps) return;
  for (std::size_t size = 1; size <= n; ++size) {
    if (auto pick = firstFitting(n, size, fitsWith)) {
      for (auto& step : steps) step.needed = false;
      for (std::size_t i : *pick) steps[i].needed = true;
      return;
    }
  }
}

}  // namespace oomlint
