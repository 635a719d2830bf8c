// A wrapper pack's block swap (kijai's WanVideoBlockSwap, HyVideoBlockSwap): which blocks wait in RAM and how
// many visit the GPU at a time, from the node's settings and rules/comfyui.yaml's swap fields.
#pragma once

#include <vector>

#include "base/knowledge/architectures.h"
#include "base/knowledge/comfyui.h"
#include "systems/comfyui/workflow.h"

namespace oomlint {

struct SwappedBlocks {
  double params = 0;    // in RAM, less the blocks on the GPU in flight
  int blocks = 0;       // swapped in all
  double inFlight = 0;  // on the GPU at a time: the running one and those fetched ahead
};

class BlockSwap {
 public:
  // `module`: the extra model the loader adds (VACE), whose blocks a -1 entry counts; null when none.
  BlockSwap(const WorkflowNode& node, const Denoiser& model, const SideModel* module) : node_(node), model_(model), module_(module) {}

  // What the node's own settings swap.
  SwappedBlocks now() const;
  // What it would swap with its first setting at its most (the plan's lever), and that most.
  SwappedBlocks atMost() const;
  int most() const { return mostBlocks(0); }

 private:
  SwappedBlocks swapped(const std::vector<double>& counts) const;
  int mostBlocks(std::size_t kind) const;
  std::vector<double> counts() const;

  const WorkflowNode& node_;
  const Denoiser& model_;
  const SideModel* module_;
};

}  // namespace oomlint
