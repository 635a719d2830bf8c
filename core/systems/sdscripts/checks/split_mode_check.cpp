// OL803 deprecated-split-mode: FLUX's --split_mode becomes --blocks_to_swap 18, or is ignored when
// blocks_to_swap is given (flux_train_network.py).
#include "systems/sdscripts/checks/checks.h"

namespace oomlint {

void checkDeprecatedSplitMode(const SdCheckContext& c, Findings& findings) {
  const SdArg* split = c.here(c.setup.splitMode.from);
  if (split == nullptr || !c.setup.splitMode.value || !c.setup.isFlux()) return;
  const bool swapGiven = c.setup.blocksToSwap.from != nullptr && c.setup.blocksToSwap.from != c.setup.splitMode.from;
  findings.report(RuleId::OL803, split->range, split->path,
                  swapGiven ? "split_mode is deprecated and ignored here: blocks_to_swap is set"
                            : "split_mode is deprecated: flux_train_network.py sets blocks_to_swap 18 instead (the estimate follows it); "
                              "write --blocks_to_swap to choose the number");
}

}  // namespace oomlint
