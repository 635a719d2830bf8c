#include "engine/rollback_order.h"

#include <algorithm>

namespace oomlint {

std::vector<LeverKind> rollbackOrder(bool video, std::optional<Phase> failed) {
  std::vector<LeverKind> order;
  const bool samplingFailed = failed && (isSampling(*failed) || *failed == Phase::VaeDecode);
  const bool loadFailed = failed && (*failed == Phase::Load || *failed == Phase::Quantize || *failed == Phase::TeCache);
  if (samplingFailed) order.push_back(LeverKind::Sampling);
  if (loadFailed) order.push_back(LeverKind::LowMemory);
  if (video) order.push_back(LeverKind::Frames);
  for (LeverKind kind : {LeverKind::Checkpointing, LeverKind::Batch, LeverKind::Bucket, LeverKind::Sampling, LeverKind::LowMemory}) {
    if (std::find(order.begin(), order.end(), kind) == order.end()) order.push_back(kind);
  }
  return order;
}

}  // namespace oomlint
