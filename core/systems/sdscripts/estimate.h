// The estimate of an sd-scripts job, per phase (latent caching, text-encoder caching, load, train step,
// samples), on the shared memory model and families. The training arithmetic is the one AI Toolkit's
// system uses (systems/aitk/estimate.h); what sd-scripts places differently is mapped onto it here:
// frozen weights in --mixed_precision's dtype (fp32 when only accelerate is given it), fp8_base cast on
// the CPU (no quantize phase on the GPU), blocks_to_swap as the share of blocks kept in RAM, the cache
// flags moving the VAE and text encoders off the GPU, a fine-tuned model in fp32 unless full_bf16/fp16.
#pragma once

#include "base/knowledge/memory_model.h"
#include "engine/estimate_core.h"
#include "report/estimate.h"
#include "systems/aitk/setup.h"
#include "systems/sdscripts/setup.h"

namespace oomlint {

// The shared training setup an sd-scripts setup amounts to (its architecture a copy when block swap
// changes what it offloads).
TrainingSetup trainingSetupFor(const SdSetup& setup);

// `detail`: Detail::Figures for a re-estimate whose verdict and figures alone are read.
Estimate estimateSdScripts(const SdSetup& setup, const MemoryModel& model, const GpuTarget& gpu, Detail detail = Detail::Explained);

}  // namespace oomlint
