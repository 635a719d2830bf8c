// The physical constants of the memory model (rules/memory.yaml): bytes per parameter of each
// weight format and optimizer, activation coefficients, VAE working memory, fixed overheads.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace oomlint {

struct WeightFormat {
  std::string name;
  std::vector<std::string> aliases;
  double bytesPerParam = 2;
  double fullPrecisionFraction = 0;  // left in bf16 by the quantizer
};

struct OptimizerState {
  std::string name;
  bool prefix = false;
  double stateBytesPerParam = 8;
};

struct VaeConstants {
  std::string family;
  double decodeK = 2200;
  double encodeK = 1100;
  int videoFramesInFlight = 1;
};

struct MemoryModel {
  std::vector<WeightFormat> weightFormats;
  std::vector<OptimizerState> optimizers;
  std::vector<VaeConstants> vaes;
  std::vector<std::pair<std::string, double>> textEncoderEmbeddings;  // kept in bf16 when the encoder is quantized
  double araFractionOfBase = 0.0;  // accuracy-recovery adapter weights, as a share of base params
  // trainable
  double loraWeightBytes = 4;
  double loraGradBytes = 4;
  bool emaResident = true;  // false: the trainer never builds its EMA (use_ema costs nothing)
  // activations
  double checkpointBytesPerTokenChannel = 2;
  double blockBytesPerTokenChannel = 40;
  double activationMultiplier = 1.3;
  double inferenceBytesPerTokenChannel = 12;
  double unetBytesPerLatentPixelCheckpointed = 0;
  double unetBytesPerLatentPixelFull = 0;
  // overheads
  double cudaContextBytes = 500.0 * (1 << 20);
  double allocatorFraction = 0.15;
  int layerOffloadRingLinears = 4;
  // uncertainty, as fractions of each term
  double uncertaintyWeights = 0.03;
  double uncertaintyTrainable = 0.05;
  double uncertaintyActivations = 0.35;
  double uncertaintyVae = 0.3;
  double uncertaintyFixedFraction = 0;  // of the fixed terms (CUDA context)
  double uncertaintyCoarseExtra = 0.25;

  // A dtype spelling or a qtype (the part before '|'); null when unknown.
  const WeightFormat* format(std::string_view name) const;
  const OptimizerState* optimizer(std::string_view name) const;
  const VaeConstants* vae(std::string_view family) const;
  double embeddingParams(std::string_view textEncoder) const;
};

}  // namespace oomlint
