#include "systems/comfyui/checks/checks.h"

#include <array>

namespace oomlint {

std::span<const WorkflowCheckEntry<WorkflowCheck>> workflowChecks() {
  static constexpr std::array<WorkflowCheckEntry<WorkflowCheck>, 5> kChecks{{
      {"nodes-not-costed", checkNodesNotCosted},
      {"latent-for-another-model", checkLatentForAnotherModel},
      {"vae-latent-mismatch", checkVaeLatentMismatch},
      {"workflow-not-estimated", checkNotEstimated},
      {"unread-values", checkUnreadValues},
  }};
  return kChecks;
}

std::span<const WorkflowCheckEntry<WorkflowEstimateCheck>> workflowEstimateChecks() {
  static constexpr std::array<WorkflowCheckEntry<WorkflowEstimateCheck>, 1> kChecks{{
      {"slow-offload", checkWorkflowSlowOffload},
  }};
  return kChecks;
}

}  // namespace oomlint
