// OL901 workflow-node-not-costed: a node that runs but whose memory the estimate has no figure for: a
// type rules/comfyui.yaml does not know (a custom node pack's), or a known one not costed yet
// (IP-Adapter, CLIP vision, upscale models). Listed, never silently dropped.
#include "systems/comfyui/checks/checks.h"

namespace oomlint {

void checkNodesNotCosted(const WorkflowCheckContext& c, Findings& findings) {
  for (const WorkflowNode* n : c.setup.notCosted) {
    const std::string why = n->known == nullptr ? "not a node oomlint knows (a custom node?)"
                                                : "oomlint does not cost a " + std::string(toString(n->known->role)) + " node yet";
    findings.report(RuleId::OL901, n->range, n->path, "`" + n->type + "` is not costed: " + why +
                                                           "; whatever it loads or computes on the GPU is missing from the estimate");
  }
}

}  // namespace oomlint
