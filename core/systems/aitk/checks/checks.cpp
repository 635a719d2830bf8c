// The one list of AI Toolkit checks, in code order. The order of running is free: the system sorts the
// findings afterwards.
#include "systems/aitk/checks/checks.h"

namespace oomlint {

// Each defined in its own file, named for what it checks.
void checkSchema(const AitkJobCheckContext&, Findings&);
void checkJob(const AitkJobCheckContext&, Findings&);

void checkUnknownArch(const AitkCheckContext&, Findings&);                // OL207
void checkAccumulationConflict(const AitkCheckContext&, Findings&);       // OL301
void checkPreservationConflict(const AitkCheckContext&, Findings&);       // OL307
void checkPreservationRequirements(const AitkCheckContext&, Findings&);   // OL308
void checkRedundantAccumulationKeys(const AitkCheckContext&, Findings&);  // OL404
void checkFramesOffGrid(const AitkCheckContext&, Findings&);              // OL405
void checkSizeNotDivisible(const AitkCheckContext&, Findings&);           // OL406
void checkLegacyFlagConflict(const AitkCheckContext&, Findings&);         // OL407
void checkQtypeWithoutQuantize(const AitkCheckContext&, Findings&);       // OL409
void checkVideoSettingOnImageModel(const AitkCheckContext&, Findings&);   // OL413
void checkWholeEpochAccumulation(const AitkCheckContext&, Findings&);     // OL415
void checkTextEncoder(const AitkCheckContext&, Findings&);
void checkModelOptions(const AitkCheckContext&, Findings&);
void checkLayerOffloading(const AitkCheckContext&, Findings&);
void checkDatasets(const AitkCheckContext&, Findings&);
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
      {"unknown-arch", checkUnknownArch},                                // OL207
      {"accumulation-conflict", checkAccumulationConflict},              // OL301
      {"preservation-conflict", checkPreservationConflict},              // OL307
      {"preservation-requirements", checkPreservationRequirements},      // OL308
      {"redundant-accumulation-keys", checkRedundantAccumulationKeys},   // OL404
      {"frames-off-grid", checkFramesOffGrid},                           // OL405
      {"size-not-divisible", checkSizeNotDivisible},                     // OL406
      {"legacy-flag-conflict", checkLegacyFlagConflict},                 // OL407
      {"qtype-without-quantize", checkQtypeWithoutQuantize},             // OL409
      {"video-setting-on-image-model", checkVideoSettingOnImageModel},   // OL413
      {"whole-epoch-accumulation", checkWholeEpochAccumulation},         // OL415
      {"text-encoder", checkTextEncoder},
      {"model-options", checkModelOptions},
      {"layer-offloading", checkLayerOffloading},
      {"datasets", checkDatasets},
      {"training", checkTraining},
  };
  return kChecks;
}

}  // namespace oomlint
