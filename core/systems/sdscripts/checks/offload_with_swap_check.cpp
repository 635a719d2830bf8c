// OL804 offload-checkpointing-with-block-swap: flux_train_network.py asserts that cpu_offload_checkpointing
// and blocks_to_swap (split_mode becomes it) are not used together.
#include "systems/sdscripts/checks/checks.h"

namespace oomlint {

void checkOffloadCheckpointingWithSwap(const SdCheckContext& c, Findings& findings) {
  const SdArg* offload = c.here(c.setup.cpuOffloadCheckpointing.from);
  if (offload == nullptr || !c.setup.cpuOffloadCheckpointing.value || !c.setup.isFlux() || c.setup.blocksToSwap.value <= 0) return;
  findings.report(RuleId::OL804, offload->range, offload->path,
                  "cpu_offload_checkpointing with blocks_to_swap " + std::to_string(c.setup.blocksToSwap.value) +
                      ": flux_train_network.py stops (\"blocks_to_swap is not supported with cpu_offload_checkpointing\")");
}

}  // namespace oomlint
