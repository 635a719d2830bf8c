#include "systems/sdscripts/checks/checks.h"

namespace oomlint {

namespace {

constexpr SdCheckEntry kChecks[] = {
    {"unknown-trainer-argument", checkUnknownArguments},
    {"mixed-precision-only-for-accelerate", checkAccelerateOnlyPrecision},
    {"deprecated-split-mode", checkDeprecatedSplitMode},
    {"offload-checkpointing-with-block-swap", checkOffloadCheckpointingWithSwap},
    {"assumed-trainer-script", checkAssumedScript},
    {"lowram-loads-into-vram", checkLowram},
    {"script-from-variables", checkVariableScript},
    {"trainer-model-not-modelled", checkUnmodelledModel},
    {"fused-backward-pass-needs-adafactor", checkFusedBackwardPass},
    {"unsupported-dtype", checkUnsupportedDtype},
};

}  // namespace

std::span<const SdCheckEntry> sdScriptsChecks() { return kChecks; }

}  // namespace oomlint
