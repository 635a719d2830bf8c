// The one list of AI Toolkit checks. The order is free: the system sorts the findings afterwards.
#include "systems/aitk/checks/checks.h"

namespace oomlint {

// Each defined in its own file, named for what it checks.
void checkSchema(const AitkJobCheckContext&, Findings&);
void checkJob(const AitkJobCheckContext&, Findings&);

void checkArchitecture(const AitkCheckContext&, Findings&);
void checkAccumulation(const AitkCheckContext&, Findings&);
void checkTextEncoder(const AitkCheckContext&, Findings&);
void checkPreservation(const AitkCheckContext&, Findings&);
void checkModelOptions(const AitkCheckContext&, Findings&);
void checkQuantization(const AitkCheckContext&, Findings&);
void checkLayerOffloading(const AitkCheckContext&, Findings&);
void checkDatasets(const AitkCheckContext&, Findings&);
void checkFrames(const AitkCheckContext&, Findings&);
void checkSampleSizes(const AitkCheckContext&, Findings&);
void checkTraining(const AitkCheckContext&, Findings&);

std::span<const AitkCheckEntry<AitkJobCheck>> aitkJobChecks() {
  static constexpr AitkCheckEntry<AitkJobCheck> kChecks[] = {
      {"schema", checkSchema},
      {"job-requirements", checkJob},
  };
  return kChecks;
}

std::span<const AitkCheckEntry<AitkCheck>> aitkTrainerChecks() {
  static constexpr AitkCheckEntry<AitkCheck> kChecks[] = {
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
