#include "systems/aitk/checks/checks.h"

namespace oomlint {

std::span<const CheckEntry> trainerChecks() {
  static constexpr CheckEntry kChecks[] = {
      {"architecture", checkArchitecture},
      {"accumulation", checkAccumulation},
      {"text-encoder", checkTextEncoder},
      {"preservation", checkPreservation},
      {"model-options", checkModelOptions},
      {"quantization", checkQuantization},
      {"layer-offloading", checkLayerOffloading},
      {"datasets", checkDatasets},
      {"frames", checkFrames},
      {"sample-sizes", checkSampleSizes},
      {"training", checkTraining},
  };
  return kChecks;
}

}  // namespace oomlint
