// The one list of AI Toolkit checks, in code order. The order of running is free: the system sorts the
// findings afterwards.
#include "systems/aitk/checks/checks.h"

namespace oomlint {

// Each defined in its own file, named for what it checks; in the lists' order.
void checkSchema(const AitkJobCheckContext&, Findings&);
void checkJobRequirements(const AitkJobCheckContext&, Findings&);

void checkUnknownArch(const AitkCheckContext&, Findings&);
void checkAccumulationConflict(const AitkCheckContext&, Findings&);
void checkFluxOnlyOption(const AitkCheckContext&, Findings&);
void checkGuidanceConflict(const AitkCheckContext&, Findings&);
void checkAdapterConflict(const AitkCheckContext&, Findings&);
void checkPartialTextEmbeddingCache(const AitkCheckContext&, Findings&);
void checkCannotUnloadTextEncoder(const AitkCheckContext&, Findings&);
void checkPreservationConflict(const AitkCheckContext&, Findings&);
void checkPreservationRequirements(const AitkCheckContext&, Findings&);
void checkTextEncoderTrainingConflict(const AitkCheckContext&, Findings&);
void checkNoWan22Stage(const AitkCheckContext&, Findings&);
void checkUnsupportedOnWan(const AitkCheckContext&, Findings&);
void checkDatasetBatchNeedsBuckets(const AitkCheckContext&, Findings&);
void checkMixedBucketing(const AitkCheckContext&, Findings&);
void checkDtypeDefaultsToFp32(const AitkCheckContext&, Findings&);
void checkUnloadAndCacheTextEncoder(const AitkCheckContext&, Findings&);
void checkSamplerMismatch(const AitkCheckContext&, Findings&);
void checkRedundantAccumulationKeys(const AitkCheckContext&, Findings&);
void checkFramesOffGrid(const AitkCheckContext&, Findings&);
void checkSizeNotDivisible(const AitkCheckContext&, Findings&);
void checkLegacyFlagConflict(const AitkCheckContext&, Findings&);
void checkModelDtypeOverridden(const AitkCheckContext&, Findings&);
void checkQtypeWithoutQuantize(const AitkCheckContext&, Findings&);
void checkAugmentsDisableLatentCache(const AitkCheckContext&, Findings&);
void checkCaptionsIgnored(const AitkCheckContext&, Findings&);
void checkAutoFrameCountBatch(const AitkCheckContext&, Findings&);
void checkVideoSettingOnImageModel(const AitkCheckContext&, Findings&);
void checkOptimizerOverridesLr(const AitkCheckContext&, Findings&);
void checkWholeEpochAccumulation(const AitkCheckContext&, Findings&);
void checkLayerOffloadingUnsupported(const AitkCheckContext&, Findings&);
void checkOffloadPercentWithoutOffloading(const AitkCheckContext&, Findings&);
void checkQfloat8BecomesFloat8(const AitkCheckContext&, Findings&);
void checkEmaVersion(const AitkCheckContext&, Findings&);
void checkLoraTargetsNarrowed(const AitkCheckContext&, Findings&);
void checkQtypeTeIgnored(const AitkCheckContext&, Findings&);

std::span<const AitkCheckEntry<AitkJobCheck>> aitkJobChecks() {
  static constexpr AitkCheckEntry<AitkJobCheck> kChecks[] = {
      {"schema", checkSchema},                     // OL105, OL201-OL206, OL208: one walk of the document
      {"job-requirements", checkJobRequirements},  // OL314
  };
  return kChecks;
}

std::span<const AitkCheckEntry<AitkCheck>> aitkTrainerChecks() {
  static constexpr AitkCheckEntry<AitkCheck> kChecks[] = {
      {"unknown-arch", checkUnknownArch},                                            // OL207
      {"accumulation-conflict", checkAccumulationConflict},                          // OL301
      {"flux-only-option", checkFluxOnlyOption},                                     // OL302
      {"guidance-conflict", checkGuidanceConflict},                                  // OL303
      {"adapter-conflict", checkAdapterConflict},                                    // OL304
      {"partial-text-embedding-cache", checkPartialTextEmbeddingCache},              // OL305
      {"cannot-unload-text-encoder", checkCannotUnloadTextEncoder},                  // OL306
      {"preservation-conflict", checkPreservationConflict},                          // OL307
      {"preservation-requirements", checkPreservationRequirements},                  // OL308
      {"text-encoder-training-conflict", checkTextEncoderTrainingConflict},          // OL309
      {"no-wan22-stage", checkNoWan22Stage},                                         // OL310
      {"unsupported-on-wan", checkUnsupportedOnWan},                                 // OL311
      {"dataset-batch-needs-buckets", checkDatasetBatchNeedsBuckets},                // OL312
      {"mixed-bucketing", checkMixedBucketing},                                      // OL313
      {"dtype-defaults-to-fp32", checkDtypeDefaultsToFp32},                          // OL401
      {"unload-and-cache-text-encoder", checkUnloadAndCacheTextEncoder},             // OL402
      {"sampler-mismatch", checkSamplerMismatch},                                    // OL403
      {"redundant-accumulation-keys", checkRedundantAccumulationKeys},               // OL404
      {"frames-off-grid", checkFramesOffGrid},                                       // OL405
      {"size-not-divisible", checkSizeNotDivisible},                                 // OL406
      {"legacy-flag-conflict", checkLegacyFlagConflict},                             // OL407
      {"model-dtype-overridden", checkModelDtypeOverridden},                         // OL408
      {"qtype-without-quantize", checkQtypeWithoutQuantize},                         // OL409
      {"augments-disable-latent-cache", checkAugmentsDisableLatentCache},            // OL410
      {"captions-ignored", checkCaptionsIgnored},                                    // OL411
      {"auto-frame-count-batch", checkAutoFrameCountBatch},                          // OL412
      {"video-setting-on-image-model", checkVideoSettingOnImageModel},               // OL413
      {"optimizer-overrides-lr", checkOptimizerOverridesLr},                         // OL414
      {"whole-epoch-accumulation", checkWholeEpochAccumulation},                     // OL415
      {"layer-offloading-unsupported", checkLayerOffloadingUnsupported},             // OL416
      {"offload-percent-without-offloading", checkOffloadPercentWithoutOffloading},  // OL417
      {"qfloat8-becomes-float8", checkQfloat8BecomesFloat8},                         // OL418
      {"ema-version-dependent", checkEmaVersion},                                       // OL419
      {"lora-targets-narrowed", checkLoraTargetsNarrowed},                              // OL420
      {"qtype-te-ignored", checkQtypeTeIgnored},                                     // OL421
  };
  return kChecks;
}

}  // namespace oomlint
