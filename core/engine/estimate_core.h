// What every system's estimator shares: a phase's total and uncertainty, the peak phase and verdict, and
// the way figures are written into a component's arithmetic.
#pragma once

#include <cstdint>
#include <string>

#include "base/knowledge/architectures.h"
#include "base/knowledge/memory_model.h"
#include "report/estimate.h"

namespace oomlint {

// What an estimate is made for: the report, which shows each component's arithmetic (Component::how) and the reasons
// for its range, or its figures alone (a range's alternatives, a plan's re-estimates), which skip writing the text
// nobody reads.
enum class Detail { Explained, Figures };

// The phase's expected peak (its components summed) and its range: each term's share of uncertainty,
// plus the coarse extra when the model's dimensions are approximate.
void totalPhase(PhaseEstimate& phase, const MemoryModel& model, bool coarse, Detail detail = Detail::Explained);
// Widens each phase's range to cover the same phase of an estimate made under another assumption (a
// version-dependent behaviour), naming it as the reason.
void widenWith(Estimate& e, const Estimate& alternative, const std::string& why);
// The peak phase, the overall range, and the verdict against the card (DESIGN.md's Verdict).
void concludeEstimate(Estimate& e);

// The host-RAM peak phase and verdict. Against the RAM: oom when the memory a kernel cannot drop (all but
// the checkpoint's mapped pages) exceeds it, borderline when it comes within its uncertainty or the mapped
// pages tip it over, else fits; without the RAM unknown. A log's host-RAM kill makes it oom either way.
void concludeHostEstimate(HostEstimate& h);

// Bytes per parameter of weights stored in `dtype` (a torch dtype spelling; fp32 when empty), and of
// weights quantized to `qtype` (the part before '|'; the quantizer's bf16 share included).
double dtypeBytesPerParam(const MemoryModel& m, const std::string& dtype);
double quantizedBytesPerParam(const MemoryModel& m, const std::string& qtype);

// The latent frames a VAE makes of `frames` (the first alone, then one per `temporal`); 1 for an image.
long latentFrames(const Vae& vae, int frames);

// slow_conv3d's working set at a 3D coder's widest full-resolution 3×3×3 convolution, per output pixel per element byte
// (memory.yaml vol2col_channels; scripts/census/conv3d_columns.py): the column buffer, C·27 × the chunk's output frames
// for one sample, and the coder's maps beside it, C·(4 × chunk + 2) for each sample. A clip's chunks after the first
// are `temporal` frames (at most the clip less its first frame); an image is one.
struct Vol2col {
  double columns = 0;
  double maps = 0;
};
Vol2col vol2colPerPixel(int channels, int temporal, int frames);

// The denoiser's tokens for a latent of this size (patches per frame × latent frames).
std::int64_t imageTokens(const Architecture& arch, long width, long height, int frames);

std::string paramsText(double params);                // "11.90 B params", "19.3 M params", "512 k params"

}  // namespace oomlint
