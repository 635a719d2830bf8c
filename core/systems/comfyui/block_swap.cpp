#include "systems/comfyui/block_swap.h"

#include <algorithm>

namespace oomlint {

std::vector<double> BlockSwap::counts() const {
  std::vector<double> out;
  for (const auto& widget : node_.known->blockSwap.widgets) out.push_back(node_.number(widget).value_or(0));
  return out;
}

SwappedBlocks BlockSwap::now() const { return swapped(counts()); }

SwappedBlocks BlockSwap::atMost() const {
  std::vector<double> c = counts();
  if (!c.empty()) c.front() = most();
  return swapped(c);
}

// Each swapped block visits the GPU for its forward, one at a time (more with blocks fetched ahead).
SwappedBlocks BlockSwap::swapped(const std::vector<double>& counts) const {
  const PackBlockSwap& t = node_.known->blockSwap;
  SwappedBlocks out;
  double all = 0, largest = 0;
  for (std::size_t i = 0; i < t.widgets.size(); ++i) {
    const bool moduleBlock = t.blockParams[i] < 0;
    if (moduleBlock && module_ == nullptr) continue;  // VACE blocks to swap without a VACE module: nothing
    const double perBlock = moduleBlock ? module_->params / module_->blocks
                            : t.blockParams[i] > 0 ? t.blockParams[i] : model_.largestBlockParams;
    const int count = static_cast<int>(std::clamp(counts[i], 0.0, static_cast<double>(mostBlocks(i))));
    if (count < 1) continue;
    all += count * perBlock;
    largest = std::max(largest, perBlock);
    out.blocks += count;
  }
  const double ahead = t.prefetchWidget.empty() ? 0 : std::max(0.0, node_.number(t.prefetchWidget).value_or(0));
  out.inFlight = std::min<double>(out.blocks, 1 + ahead);
  out.params = std::clamp(all - out.inFlight * largest, 0.0, model_.params - model_.residentBf16Params);
  return out;
}

// The blocks of the kind the node's `kind`-th setting counts.
int BlockSwap::mostBlocks(std::size_t kind) const {
  const PackBlockSwap& t = node_.known->blockSwap;
  if (t.blockParams[kind] < 0) return module_ ? module_->blocks : 0;
  return t.most[kind] > 0 ? t.most[kind] : model_.blocks;
}

}  // namespace oomlint
