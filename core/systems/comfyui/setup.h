// A workflow as the generation estimate sees it: the model its sampler runs and how it is stored, the
// latent's size, frames and batch, ControlNets, a second pass, and the decode node, each with the node
// and value that set it. Derived once (setupWorkflow), purely; the checks read it, the estimate reads its
// GenerationSetup (ComfyUI's memory manager, webui/generation_estimate), the plan changes it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/knowledge/architectures.h"
#include "base/knowledge/comfyui.h"
#include "base/knowledge/webui.h"
#include "systems/comfyui/workflow.h"
#include "systems/webui/setup.h"

namespace oomlint {

// Two nodes that do not fit together: a latent made for other channels than the model's, a VAE of other
// channels than the latent it decodes.
struct GraphMismatch {
  const WorkflowNode* at = nullptr;
  std::string message;
  bool fails = false;  // ComfyUI stops with an error (else it adapts, and the graph is only suspicious)
};

// A value the setup needed but could not read (a string where the size goes): its default is used.
struct UnreadValue {
  const WorkflowNode* node = nullptr;
  const NodeValue* value = nullptr;
  std::string message;
};

struct WorkflowSetup {
  // What the estimate reads. generation.arch points at `arch` below: keep the setup where it was made.
  GenerationSetup generation;
  Architecture arch;  // the family's architecture, as this workflow loads it (a smaller variant, one expert)
  std::string label;  // its name in messages, with an extra model it runs ("Wan 2.1 14B + VACE")

  const WorkflowNode* sampler = nullptr;  // the first sampler that runs
  const WorkflowNode* model = nullptr;    // the loader of the model it runs
  const NodeValue* modelName = nullptr;
  const NodeValue* weightDtype = nullptr;  // UNETLoader's weight_dtype
  const GgufQuant* gguf = nullptr;         // the GGUF quantization of the model file
  const WorkflowNode* latent = nullptr;    // the node that sets the size
  const WorkflowNode* decode = nullptr;    // the VAE decode of the final image
  const WorkflowNode* secondPass = nullptr;  // a latent or image upscale before a second sampler
  const WorkflowNode* blockSwap = nullptr;   // a wrapper's block-swap settings the model loader takes
  const WorkflowNode* blockMover = nullptr;  // a model patch that moves every block onto the GPU itself (TaylorSeer's)
  double blockMoverCachedMaps = 0;           // the token maps its feature cache keeps (generation.cachedTokenMaps' share)
  std::vector<const NodeValue*> referenceMegapixels;  // the megapixels a reference image is scaled to (ImageScaleToTotalPixels)
  int swapMost = 0;              // the most blocks its first setting can swap
  double swapAllParams = 0;      // what swapping that many leaves in RAM (the swappedParams it would give)
  bool packPlacesModel = false;  // the loader is a node pack's that places the model itself (a wrapper's)
  std::string unmodelledFamily;  // the model's family when oomlint has no memory model for it
  std::vector<const WorkflowNode*> notCosted;  // active nodes the estimate has no figure for
  std::vector<GraphMismatch> mismatches;
  std::vector<UnreadValue> unread;

  bool estimable() const { return generation.family != nullptr; }
};

std::unique_ptr<WorkflowSetup> setupWorkflow(const Workflow& workflow, const ComfyUiKnowledge& comfyui,
                                             const WebUiKnowledge& webui, const Architectures& architectures);

}  // namespace oomlint
