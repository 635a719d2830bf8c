// The one list of AI Toolkit checks, in code order. The order of running is free: the system sorts the
// findings afterwards.
#include "systems/aitk/checks/checks.h"

namespace oomlint {

// Each defined in its own file, named for what it checks.
void checkSchema(const AitkJobCheckContext&, Findings&);
void checkJob(const AitkJobCheckContext&, Findings&);

void checkUnknownArch(const AitkCheckContext&, Findings&);                      // OL207
void checkAccumulationConflict(const AitkCheckContext&, Findings&);             // OL301
void checkFluxOnlyOption(const AitkCheckContext&, Findings&);                   // OL302
void checkAdapterConflict(const AitkCheckContext&, Findings&);                  // OL304
void checkPreservationConflict(const AitkCheckContext&, Findings&);             // OL307
void checkPreservationRequirements(const AitkCheckContext&, Findings&);         // OL308
void checkNoWan22Stage(const AitkCheckContext&, Findings&);                     // OL310
void checkUnsupportedOnWan(const AitkCheckContext&, Findings&);                 // OL311
void checkDatasetBatchNeedsBuckets(const AitkCheckContext&, Findings&);         // OL312
void checkMixedBucketing(const AitkCheckContext&, Findings&);                   // OL313
void checkRedundantAccumulationKeys(const AitkCheckContext&, Findings&);        // OL404
void checkFramesOffGrid(const AitkCheckContext&, Findings&);                    // OL405
void checkSizeNotDivisible(const AitkCheckContext&, Findings&);                 // OL406
void checkLegacyFlagConflict(const AitkCheckContext&, Findings&);               // OL407
void checkModelDtypeOverridden(const AitkCheckContext&, Findings&);             // OL408
void checkQtypeWithoutQuantize(const AitkCheckContext&, Findings&);             // OL409
void checkAugmentsDisableLatentCache(const AitkCheckContext&, Findings&);       // OL410
void checkAutoFrameCountBatch(const AitkCheckContext&, Findings&);              // OL412
void checkVideoSettingOnImageModel(const AitkCheckContext&, Findings&);         // OL413
void checkWholeEpochAccumulation(const AitkCheckContext&, Findings&);           // OL415
void checkLayerOffloadingUnsupported(const AitkCheckContext&, Findings&);       // OL416
void checkOffloadPercentWithoutOffloading(const AitkCheckContext&, Findings&);  // OL417
void checkQfloat8BecomesFloat8(const AitkCheckContext&, Findings&);             // OL418
void checkTextEncoder(const AitkCheckContext&, Findings&);
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
      {"unknown-arch", checkUnknownArch},                                            // OL207
      {"accumulation-conflict", checkAccumulationConflict},                          // OL301
      {"flux-only-option", checkFluxOnlyOption},                                     // OL302
      {"adapter-conflict", checkAdapterConflict},                                    // OL304
      {"preservation-conflict", checkPreservationConflict},                          // OL307
      {"preservation-requirements", checkPreservationRequirements},                  // OL308
      {"no-wan22-stage", checkNoWan22Stage},                                         // OL310
      {"unsupported-on-wan", checkUnsupportedOnWan},                                 // OL311
      {"dataset-batch-needs-buckets", checkDatasetBatchNeedsBuckets},                // OL312
      {"mixed-bucketing", checkMixedBucketing},                                      // OL313
      {"redundant-accumulation-keys", checkRedundantAccumulationKeys},               // OL404
      {"frames-off-grid", checkFramesOffGrid},                                       // OL405
      {"size-not-divisible", checkSizeNotDivisible},                                 // OL406
      {"legacy-flag-conflict", checkLegacyFlagConflict},                             // OL407
      {"model-dtype-overridden", checkModelDtypeOverridden},                         // OL408
      {"qtype-without-quantize", checkQtypeWithoutQuantize},                         // OL409
      {"augments-disable-latent-cache", checkAugmentsDisableLatentCache},            // OL410
      {"auto-frame-count-batch", checkAutoFrameCountBatch},                          // OL412
      {"video-setting-on-image-model", checkVideoSettingOnImageModel},               // OL413
      {"whole-epoch-accumulation", checkWholeEpochAccumulation},                     // OL415
      {"layer-offloading-unsupported", checkLayerOffloadingUnsupported},             // OL416
      {"offload-percent-without-offloading", checkOffloadPercentWithoutOffloading},  // OL417
      {"qfloat8-becomes-float8", checkQfloat8BecomesFloat8},                         // OL418
      {"text-encoder", checkTextEncoder},
      {"training", checkTraining},
  };
  return kChecks;
}

}  // namespace oomlint
