// The seed guide's rollback order (reference/README.md), written once. Each system files its levers under
// these kinds and walks them in this order; the log diagnosis quotes the same order in its advice.
#pragma once

#include <optional>
#include <vector>

#include "base/ids.h"

namespace oomlint {

enum class LeverKind {
  Frames,         // fewer video frames
  Checkpointing,  // gradient checkpointing on
  Batch,          // batch size 1
  Bucket,         // drop the largest resolution bucket
  Sampling,       // cheaper or no preview samples
  LowMemory,      // low_vram, quantization, offloading
};

// Images: checkpointing → batch 1 → largest bucket → sampling → low memory. Video: fewer frames first.
// A run that failed in one phase takes that phase's lever first: sampling settings for a sampling or
// decode OOM, low memory (quantize, low_vram) for one while loading.
std::vector<LeverKind> rollbackOrder(bool video, std::optional<Phase> failed = std::nullopt);

}  // namespace oomlint
