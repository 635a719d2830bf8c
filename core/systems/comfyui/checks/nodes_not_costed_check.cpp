// OL901 workflow-node-not-costed: a node that runs but whose memory the estimate has no figure for: a
// type rules/comfyui.yaml does not know (a custom node pack's), or a loader of a model it has no size for
// (a ControlNet or IP-Adapter file it cannot match), or a model upscale it cannot place (a second one, or
// one in a workflow without a generation), or a node that runs on the GPU over a video's frames at a size no
// workflow gives (Canny fed by LoadVideo). Listed, never silently dropped.
#include "systems/comfyui/checks/checks.h"

namespace oomlint {

void checkNodesNotCosted(const WorkflowCheckContext& c, Findings& findings) {
  for (const WorkflowNode* n : c.setup.notCosted) {
    const bool controlnet = n->known != nullptr && n->known->role == NodeRole::Controlnet;
    const std::string why = n->known == nullptr       ? "not a node oomlint knows (a custom node?)"
                            : n->known->gpuOverFrames ? "it runs on the GPU over every frame of the video it is fed at once, at the video's own size, "
                                                        "which a workflow does not give"
                                                      : "oomlint has no figure for this `" + std::string(toString(n->known->role)) + "` node (" +
                                                            (controlnet ? "rules/webui.yaml controlnets" : "rules/comfyui.yaml side_models") + ")";
    findings.report(RuleId::OL901, n->range, n->path, "`" + n->type + "` is not costed: " + why +
                                                           "; whatever it loads or computes on the GPU is missing from the estimate");
  }
}

}  // namespace oomlint
