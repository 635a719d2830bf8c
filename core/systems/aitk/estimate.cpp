#include "systems/aitk/estimate.h"

#include "engine/estimate_core.h"

#include <algorithm>
#include <cmath>

namespace oomlint {

namespace {

constexpr double kBf16 = 2.0;  // activations, VAE work and quantizer islands are bf16

double dtypeBytes(const MemoryModel& m, const std::string& dtype) {
  const WeightFormat* f = m.format(dtype.empty() ? "fp32" : dtype);
  return f ? f->bytesPerParam : 4.0;
}

// `text()` when the estimate writes its arithmetic (`explain`), else nothing: an estimate made for its figures alone
// formats none of it.
template <class Text>
std::string written(bool explain, Text&& text) {
  return explain ? std::string(text()) : std::string();
}

// Weights of `p` parameters, quantized with `qtype` or kept in the training dtype.
Component weights(bool explain, const MemoryModel& m, ComponentName name, double p, bool quantized, const std::string& qtype,
                  const std::string& dtype) {
  if (p <= 0) return {name, 0, written(explain, [] { return "none"; }), Term::Weights};
  if (quantized) {
    const std::string bare = qtypeFormat(qtype);
    const WeightFormat* f = m.format(bare);
    const double q = f ? f->bytesPerParam : 1.0;
    const double keep = f ? f->fullPrecisionFraction : 0.05;
    const double perParam = keep * kBf16 + (1 - keep) * q;
    return {name, p * perParam, written(explain, [&] {
              return paramsText(p) + " × " + fixedText(perParam, 3) + " B/param (" + bare + ", " +
                     fixedText(keep * 100, 0) + "% kept in bf16)";
            })};
  }
  const double b = dtypeBytes(m, dtype);
  return {name, p * b, written(explain, [&] {
            return paramsText(p) + " × " + fixedText(b, 0) + " B/param (" + (dtype.empty() ? "fp32" : dtype) + ")";
          })};
}

// The bytes alone of weights(): a figure inside another component's arithmetic.
double weightBytes(const MemoryModel& m, double p, bool quantized, const std::string& qtype, const std::string& dtype) {
  return weights(false, m, "", p, quantized, qtype, dtype).bytes;
}

// What AI Toolkit changed shortly before the snapshot the estimate assumes (architectures.yaml `assumes`):
// a job run on a release from before the change behaves the other way, so the range covers both.
struct Behaviour {
  bool emaBuilt = true;      // setup_ema() is called since 82190b41 (2026-06-07); before, no EMA copy existed
  int offloadRingSlots = 0;  // 2 × AI_TOOLKIT_OFFLOAD_DEPTH since c78b1404 (2026-06-07); 2 + 2 before
  // Since cac3815b (2026-06-08) the preservation prediction's graph and the main one go through one backward
  // (SDTrainer.py), so both graphs' activations are alive together; before, each had its own backward.
  bool preservationInOneBackward = true;
  // The sampling decode tiled by the classes whose tiles_since names a recent commit (architectures.yaml: Wan's and
  // Qwen-Image's, all of 2026-07-10); before it, untiled.
  bool recentLowVramTiles = true;
  // Empty where torch runs bf16 3D convolutions through cuDNN (the torch AI Toolkit installs, on Ampere or later); else
  // why not: the torch 2.9.1 its Docker image and README pinned from 2025-12-23 (ed36edd8; README a802014e) to
  // 2026-07-27 (1e58c9a0), or a card before Ampere (GpuTarget::bf16ConvolutionsWithoutCudnn). memory.yaml vol2col_channels.
  std::string conv3dWithoutCudnn{};
};

bool parksModules(const TrainingSetup& s) { return s.lowVram && s.arch->lowVramDoes("park_modules"); }
// What low_vram's sampling sends away between its stages (only the Wan classes': architectures.yaml).
bool samplingDoes(const TrainingSetup& s, std::string_view kind) { return s.lowVram && s.arch->lowVramDoes(kind); }
bool stagesSampling(const TrainingSetup& s) {
  return samplingDoes(s, "denoises_alone") || samplingDoes(s, "decodes_alone") || samplingDoes(s, "encodes_prompts_alone");
}
// low_vram tiles the sampling decode where the class does (tiled_vae), a class with a tiles_since only from that commit;
// Wan's model_kwargs.vae_tiling asks for it without low_vram (886c2aec).
bool tilesSamplingDecode(const TrainingSetup& s, bool recentTiles) {
  const bool asked = s.lowVram || (s.arch->wanFamily && s.vaeTilingAsked);
  return asked && s.arch->lowVramDoes("tiled_vae") && (recentTiles || s.arch->lowVramTilesSince.empty());
}
// The commit from which this job's sampling decode is tiled ("886c2aec (2026-07-10)"), where that is recent; else empty.
std::string recentTilingCommit(const TrainingSetup& s) {
  if (!tilesSamplingDecode(s, true) || tilesSamplingDecode(s, false) || !(s.baselineSample || s.periodicSample)) return {};
  return s.arch->lowVramTilesSince;
}
double textEmbeddingParams(const TrainingSetup& s, const MemoryModel& m) {
  double embeddings = 0;
  for (const auto& te : s.arch->textEncoders) embeddings += m.embeddingParams(te.name);
  return embeddings;
}
// low_vram quantizes the transformer off the GPU or one block at a time on it (quantize_model, HiDream's loader), never
// holding it whole in full precision.
bool lowVramQuantizesBlockwise(const TrainingSetup& s) {
  return s.lowVram && (s.arch->lowVramDoes("quantize_on_cpu") || s.arch->lowVramDoes("park_modules"));
}

double residentDenoiserParams(const TrainingSetup& s) {
  const Denoiser& d = s.arch->denoiser;
  // Wan 2.2 A14B with low_vram keeps only the expert being trained on the GPU.
  if (d.experts > 1 && s.lowVram && s.arch->lowVramDoes("swap_experts")) return d.params / d.experts;
  return d.params;
}

// The resident experts' parameters outside their checkpointed blocks (embedders, heads, Krea 2's text fusion); 0 where
// the data gives no block size, or the blocks' sizes vary (FLUX's double and single ones: their count × the largest
// exceeds the whole).
double paramsOutsideBlocks(const Denoiser& d, double residentParams) {
  if (d.blocks <= 0 || d.largestBlockParams <= 0) return 0;
  const int experts = residentParams < d.params ? 1 : std::max(1, d.experts);
  return std::max(0.0, residentParams - experts * d.blocks * d.largestBlockParams);
}

Component denoiserWeights(bool explain, const TrainingSetup& s, const MemoryModel& m, const Behaviour& b) {
  const double p = residentDenoiserParams(s);
  const double outside = paramsOutsideBlocks(s.arch->denoiser, p);
  Component c = weights(explain, m, "transformer weights", p, s.quantize, s.qtype, s.trainDtype);
  if (s.quantize && s.fp8BlocksOnly && outside > 0) {
    const Component blocks = weights(explain, m, "", p - outside, true, s.qtype, s.trainDtype);
    c.bytes = blocks.bytes + outside * kBf16;
    if (explain) c.how = blocks.how + " + " + paramsText(outside) + " outside the blocks × 2 B (bf16: the fp8 conversion targets the blocks)";
  }
  if (explain && s.arch->denoiser.experts > 1 && p < s.arch->denoiser.params) c.how += "; the idle expert is on the CPU (low_vram)";
  if (s.accuracyRecoveryAdapter && m.araFractionOfBase > 0) {
    c.bytes += p * m.araFractionOfBase * kBf16;
    if (explain) c.how += " + accuracy-recovery adapter " + fixedText(m.araFractionOfBase * 100, 1) + "% of params in bf16";
  }
  if (s.layerOffloading && s.arch->layerOffloading && s.offloadTransformer > 0) {
    const auto kept = [&] { return fixedText((1 - s.offloadTransformer) * 100, 0) + "%"; };
    if (s.swapsBlocksInPlace) {
      // Only blocks are exchanged: what lies outside them stays on the GPU.
      const double outsideBytes = outside * (s.quantize && s.fp8BlocksOnly ? kBf16 : c.bytes / p);
      c.bytes = outsideBytes + (c.bytes - outsideBytes) * (1 - s.offloadTransformer);
      if (explain) {
        c.how += "; block swap keeps " + kept() + " of the blocks on the GPU (whole blocks exchanged in place)" +
                 (outside > 0 ? " and the " + paramsText(outside) + " outside them" : "");
      }
      return c;
    }
    // The ring's slots hold weights dequantized to bf16 (manager_modules.py _materialize_linear_weight).
    const double ring = b.offloadRingSlots * s.arch->denoiser.largestLinearParams() * kBf16;
    c.bytes = c.bytes * (1 - s.offloadTransformer) + ring;
    if (explain) c.how += "; layer offloading keeps " + kept() + " plus a ring of " + std::to_string(b.offloadRingSlots) + " Linear weights in bf16";
  }
  return c;
}

// One text encoder under quantize_te: its Linears in the quantized type, its token embeddings in bf16
// (quantizers convert Linear layers only); a CLIP encoder, which no AI Toolkit loader quantizes, in the training dtype.
double quantizedTextEncoderBytes(const TrainingSetup& s, const MemoryModel& m, const TextEncoder& te) {
  if (te.neverQuantized || te.params <= 0) return weightBytes(m, te.params, false, "", s.textEncoderDtype());
  const double bytes = weightBytes(m, te.params, true, s.qtypeTe, s.textEncoderDtype());
  return bytes + m.embeddingParams(te.name) * (kBf16 - bytes / te.params);
}

Component textEncoderWeights(bool explain, const TrainingSetup& s, const MemoryModel& m) {
  if (s.textEncoderOnCpu) {
    return {"text encoder weights", 0, written(explain, [] { return "on the CPU, where they encode the captions"; }), Term::Weights};
  }
  const double pTe = s.arch->textEncoderParams();
  Component c = weights(explain, m, "text encoder weights", pTe, s.quantizeTe, s.qtypeTe, s.textEncoderDtype());
  if (s.quantizeTe && pTe > 0) {
    double bytes = 0, kept = 0, embeddings = 0;
    for (const auto& te : s.arch->textEncoders) {
      bytes += quantizedTextEncoderBytes(s, m, te);
      if (te.neverQuantized) {
        kept += te.params;
      } else {
        embeddings += m.embeddingParams(te.name);
      }
    }
    c.bytes = bytes;
    if (explain) {
      c.how = kept < pTe ? weights(explain, m, "", pTe - kept, true, s.qtypeTe, s.textEncoderDtype()).how : "";
      if (embeddings > 0) c.how += "; " + paramsText(embeddings) + " of token embeddings stay bf16";
      if (kept > 0) {
        c.how += std::string(c.how.empty() ? "" : "; ") + "the CLIP encoders' " +
                 weights(explain, m, "", kept, false, "", s.textEncoderDtype()).how + ", never quantized";
      }
    }
  }
  if (s.layerOffloading && s.arch->layerOffloading && s.offloadTextEncoder > 0 && c.bytes > 0) {
    // Embedding tables are not managed modules: they stay on the GPU in bf16 (manager.py's skip list).
    const double embeddingBytes = std::min(c.bytes, textEmbeddingParams(s, m) * kBf16);
    c.bytes = embeddingBytes + (c.bytes - embeddingBytes) * (1 - s.offloadTextEncoder);
    if (explain) c.how += "; layer offloading keeps " + fixedText((1 - s.offloadTextEncoder) * 100, 0) + "% and the token embeddings";
  }
  return c;
}

// Modules that ride with the transformer in bf16, never quantized nor offloaded (LTX-2.x text connectors).
Component residentExtras(bool explain, const TrainingSetup& s) {
  const double p = s.arch->denoiser.residentBf16Params;
  return {"text connectors", p * kBf16, written(explain, [&] { return paramsText(p) + " × 2 B (bf16, never quantized nor offloaded)"; }),
          Term::Weights};
}

Component vaeWeights(bool explain, const TrainingSetup& s, const MemoryModel& m) {
  return weights(explain, m, "VAE weights", s.arch->vae.params, false, "", s.vaeWeightDtype());
}

// A quantized backend that dequantizes in its training forward leaves autograd the bf16 weight of every
// Linear it ran (memory.yaml saves_dequantized_weight): the recomputed block's under gradient checkpointing,
// every resident quantized layer's without. Offloaded layers go through the manager's own autograd instead.
Component dequantizedForBackward(bool explain, const TrainingSetup& s, const MemoryModel& m) {
  const WeightFormat* f = s.quantize ? m.format(qtypeFormat(s.qtype)) : nullptr;
  if (f == nullptr || !f->savesDequantizedWeight) return {"dequantized weights for backward", 0, "", Term::Activations};
  const double quantized = 1 - f->fullPrecisionFraction;
  const double resident = s.layerOffloading && s.arch->layerOffloading ? 1 - s.offloadTransformer : 1;
  const double p = (s.gradientCheckpointing ? s.arch->denoiser.recomputedUnit() : residentDenoiserParams(s)) * quantized * resident;
  return {"dequantized weights for backward", p * kBf16, written(explain, [&] {
            return paramsText(p) + " × 2 B: " + f->name + " runs F.linear on the weight dequantized to bf16, kept for the backward (" +
                   (s.gradientCheckpointing ? "the recomputed block's" : "every layer's: no checkpointing") + ")";
          }),
          Term::Activations};
}

// An adapter that runs each adapted layer's op on a weight it builds (TrainingSetup::mergedWeightCopies) leaves autograd
// that weight-sized tensor per layer, in the frozen weights' dtype: the recomputed block's under gradient checkpointing,
// every adapted layer's without (the trained text encoders' too).
Component mergedAdapterWeights(bool explain, const TrainingSetup& s, const MemoryModel& m) {
  if (s.mergedWeightCopies == 0 || s.fullFinetune) return {"adapter's merged weights for backward", 0, "", Term::Activations};
  double p = s.gradientCheckpointing ? s.arch->denoiser.recomputedUnit() : residentDenoiserParams(s);
  if (!s.gradientCheckpointing && s.trainsTextEncoders()) {
    for (const TextEncoder& te : s.arch->textEncoders) p += te.params;
  }
  const double bytes = dtypeBytes(m, s.trainDtype);
  return {"adapter's merged weights for backward", p * s.mergedWeightCopies * bytes, written(explain, [&] {
            return paramsText(p) + " × " + std::to_string(s.mergedWeightCopies) + " × " + fixedText(bytes, 0) +
                   " B: LyCORIS runs each adapted layer on the weight delta it builds" +
                   (s.mergedWeightCopies > 1 ? ", DoRA on the merged weight too" : "") + ", kept for the backward (" +
                   (s.gradientCheckpointing ? "the recomputed block's" : "every adapted layer's: no checkpointing") + ")";
          }),
          Term::Activations};
}

// Working memory of one VAE pass over `batch` samples of width×height (×frames for video): pixels × K × the VAE's
// element bytes each (4 where the sampling pipeline upcasts it), and a video's decoded RGB clips the pipeline holds on
// the GPU beside it (memory.yaml rgb_clip_copies).
Component vaeWork(bool explain, const TrainingSetup& s, const MemoryModel& m, const Behaviour& b, bool decode, long w, long h,
                  int frames, bool tiled = false, int batch = 1) {
  const ComponentName name = decode ? "VAE decode" : "VAE encode";
  const VaeConstants* v = m.vae(s.arch->vae.family);
  if (v == nullptr || s.arch->vae.family == "identity") return {name, 0, written(explain, [] { return "pixel-space model: no VAE"; }), Term::Vae};
  const bool upcast = decode && s.sampleDecodeUpcast;
  const double elemBytes = upcast ? 4 : s.vaeElementBytes();
  // An image pass from the coder's structure is what a GPU needs at least: a floor, its range above only.
  const bool floor = frames <= 1 && v->imageFloorK(decode) > 0;
  const double k = floor ? v->imageFloorK(decode) : v->k(decode, frames);
  const Term term = floor ? Term::VaeFloor : Term::Vae;
  const std::string kText = written(explain, [&] {
    return fixedText(k, 0) + " B/px/elem" +
           (!floor    ? ""
            : decode ? " (the decoder's structure, memory.yaml image_decode_floor_k)"
                     : " (the encoder's structure, memory.yaml image_encode_floor_k)");
  });
  const int inFlight = frames > 1 ? std::min(frames, std::max(1, v->videoFramesInFlight)) : 1;
  // The decoded RGB, all frames (a decoder that decodes a short clip for one image, those), in the decoder's output dtype.
  const int decoded = decode && frames <= 1 && v->imageDecodedFrames > 1 ? v->imageDecodedFrames : frames;
  const double outBytes = decode && v->outputBytes > 0 ? v->outputBytes : elemBytes;
  const double clip = 3.0 * decoded * static_cast<double>(w) * h * outBytes;
  const double clips = decode && decoded > 1 ? v->rgbClipCopies * clip : 0;
  const std::string clipsHow = written(explain && clips > 0, [&] {
    return " + " + std::to_string(v->rgbClipCopies) + " RGB clips of " + std::to_string(decoded) + " frames" +
           (outBytes != elemBytes ? " × " + fixedText(outBytes, 0) + " B" : "");
  });
  const std::string elem = written(explain, [&] { return " × " + fixedText(elemBytes, 0) + " B"; });
  std::string how = written(explain, [&] { return std::to_string(w) + "×" + std::to_string(h) + " px"; });
  double px = static_cast<double>(w) * h, exactPx = px;
  double overlap = 0;  // a tiled decode's decoded tiles, in clips (diffusers' tiled_decode keeps them all)
  // diffusers tiles when either side exceeds the tile (tile_sample_min_height / _width).
  const long tile = v->tilePx;
  if ((tiled || v->alwaysTiles) && tile > 0 && (w > tile || h > tile)) {
    how = written(explain, [&] {
      return std::to_string(tile) + "×" + std::to_string(tile) + (v->alwaysTiles ? " tiles (the VAE tiles itself)" : " tiles (tiled decode)") +
             " ×1.25";
    });
    exactPx = static_cast<double>(tile) * tile;
    px = exactPx * 1.25;
    if (decode && v->tileStridePx > 0) {
      // Each tile from `stride` to `stride + tile`, cut at the edge: the pixels the tiles cover, overlaps counted twice.
      const auto covered = [&](long side) {
        double sum = 0;
        for (long start = 0; start < side; start += v->tileStridePx) sum += static_cast<double>(std::min(tile, side - start));
        return sum;
      };
      overlap = covered(w) * covered(h) / (static_cast<double>(w) * h);
    }
  } else if (explain && inFlight > 1) {
    how += " × " + std::to_string(inFlight) + " frames in flight";
  }
  const std::string batchHow = written(explain && batch > 1, [&] { return std::to_string(batch) + " × "; });
  // While the tiles are decoded, the decoded ones beside one tile's working memory; once all are, the tiles, their
  // blended rows and the clips the pipeline makes of them (the output and its clamp): the larger of the two moments.
  const auto withTiles = [&](double working, const std::string& workingHow) -> Component {
    if (overlap <= 0) return {name, working + clips, workingHow + clipsHow, term};
    const double during = working + overlap * clip, after = (overlap + 1) * clip + clips;
    return {name, std::max(during, after), written(explain, [&] {
              return workingHow + " + the decoded tiles (" + fixedText(overlap, 2) + " clips: diffusers keeps every tile" +
                     (after > during ? ", then their blended rows and " + std::to_string(v->rgbClipCopies) + " RGB clips)" : ")");
            }),
            term};
  };
  Component c = withTiles(batch * px * inFlight * k * elemBytes, written(explain, [&] { return batchHow + how + " × " + kText + elem; }));
  // A 3D-convolution coder in half precision without cuDNN runs slow_conv3d: at its widest full-resolution 3×3×3
  // convolution, vol2col's column buffer (C·27 × the chunk's output frames, one sample at a time) beside the resnet's
  // input, its normed activation, the convolution's input with the 2 cached frames and its output (C·(4T + 2) each
  // sample), and what is decoded so far (at most one clip). A clip's chunks after the first are `temporal` frames.
  if (!b.conv3dWithoutCudnn.empty() && elemBytes < 4 && v->vol2colChannels > 0) {
    const Vol2col vol2col = vol2colPerPixel(v->vol2colChannels, s.arch->vae.temporal, frames);
    const double work = (vol2col.columns + batch * vol2col.maps) * exactPx * elemBytes;
    const std::string workHow = written(explain, [&] {
      return how + " × (" + fixedText(vol2col.columns, 0) + " B/px/elem slow_conv3d vol2col buffer + " + batchHow +
             fixedText(vol2col.maps, 0) + " maps beside it)" + elem;
    });
    Component slow = withTiles(work, workHow);
    if (overlap <= 0 && clips > 0) {  // beside the columns only the clip decoded so far; the pipeline's copies come after
      slow.bytes = std::max(work + clip, clips);
      if (explain) slow.how = workHow + " + the clip decoded so far";
    }
    if (slow.bytes > c.bytes) {
      if (explain) slow.how += ": " + b.conv3dWithoutCudnn;
      slow.term = Term::VaeFloor;  // the structure's count: its range reaches above only
      c = std::move(slow);
    }
  }
  if (upcast) {
    // upcast_vae() is vae.to(float32): each fp16 weight replaced by an fp32 one until the decode is done.
    c.bytes += s.arch->vae.params * 2;
    if (explain) c.how += " + " + paramsText(s.arch->vae.params) + " × 2 B: the pipeline upcasts the fp16 VAE to fp32 for its decode (force_upcast)";
  }
  return c;
}

// Sequence length the denoiser runs for one sample of a dataset shape; `how` how it was counted, when `explain`.
double sequenceLength(bool explain, const TrainingSetup& s, long w, long h, int frames, int controls, std::string& how) {
  const Denoiser& d = s.arch->denoiser;
  if (d.tokensPerSecond > 0) {
    // Audio: a clip's length, not a bucket's size, sets the tokens; the config does not give it.
    const double tokens = d.tokensPerSecond * d.planningSeconds;
    how = written(explain, [&] {
      return fixedText(tokens, 0) + " audio tokens (" + fixedText(d.planningSeconds, 0) + " s planned × " + fixedText(d.tokensPerSecond, 1) +
             " per s; the dataset's longest clip sets them)";
    });
    if (!d.jointAttention || d.textTokens <= 0) return tokens;
    if (explain) how += " + " + std::to_string(d.textTokens) + " text";
    return tokens + d.textTokens;
  }
  const double img = static_cast<double>(imageTokens(*s.arch, w, h, frames));
  double seq = img;
  how = written(explain, [&] { return fixedText(img, 0) + " image tokens"; });
  if (controls > 0 && d.controlTokenFactor > 0) {
    if (d.controlMaxPixels > 0 && !s.controlsAtTargetSize) {
      // Encoded at its raw size up to the cap: a dataset's photos are larger than that, whatever the bucket.
      const long side = std::lround(std::sqrt(d.controlMaxPixels));
      const double control = d.controlTokenFactor * static_cast<double>(imageTokens(*s.arch, side, side, 1));
      seq += control * controls;
      if (explain) how += " + " + std::to_string(controls) + " control × " + fixedText(control, 0) + " (its raw size up to " + std::to_string(side) + "²)";
    } else {
      seq += img * d.controlTokenFactor * controls;
      if (explain) how += " × (1 + " + std::to_string(controls) + " control)";
    }
  }
  if (d.jointAttention && d.textTokens > 0) {
    seq += d.textTokens;
    if (explain) how += " + " + std::to_string(d.textTokens) + " text";
  }
  return seq;
}

// What a transformer's LoRA-path activation figures rest on: its family's GPU run, the CPU census, or (no family) the
// families' median.
Term loraPathTerm(const Denoiser& d, const ActivationCoefficients& a) {
  if (d.activationFamily.empty()) return Term::ActivationsUnmeasured;
  return a.measuredOnGpu ? Term::ActivationsMeasuredOnGpu : Term::Activations;
}

// One dataset's activations at its batch and largest size, of `seq` tokens (sequenceLength; `seqHow` how they were
// counted). `graphs`: forward graphs alive until one backward (2 with a preservation loss): each keeps its blocks'
// inputs or saved sets; the backward still recomputes one block at a time.
// Plain attention's score matrices beside a UNet's census figure (which counts a fused kernel), in matrices of one layer
// (memory.yaml plain_attention_*, from the CPU census): its softmax keeps its output for the backward in every
// self-attention layer, and the layer running backward adds the grads of its probabilities and scores. Under
// checkpointing (one BasicTransformerBlock a unit in sd-scripts) only the recomputed layer keeps its output.
// `passes`: a forward's batch elements; `training`: false for sampling, where the scores and softmax live together.
double plainAttentionBytes(const TrainingSetup& s, const MemoryModel& m, double width, double height, int passes, bool training,
                           std::string* how) {
  const Denoiser& d = s.arch->denoiser;
  if (!s.plainAttention || d.selfAttention.empty()) return 0;
  const double latentPixels = width * height / std::pow(s.arch->vae.spatial, 2);
  double largest = 0, all = 0;
  for (const auto& level : d.selfAttention) {
    const double tokens = latentPixels / std::pow(level.downsample, 2);
    const double matrix = passes * static_cast<double>(level.heads) * tokens * tokens * s.activationBytes;
    largest = std::max(largest, matrix);
    all += level.layers * matrix;
  }
  const bool everyLayer = training && !s.gradientCheckpointing;
  const double backward = m.plainAttentionBackwardMatrices * largest;
  const double bytes = !training ? m.plainAttentionInferenceMatrices * largest
                       : everyLayer ? m.plainAttentionSavedMatrices * all + backward
                                    : m.plainAttentionSavedMatrices * largest + backward;
  if (how) {
    *how = " + plain attention's score matrices, " + fixedText(bytes / kGiB, 2) + " GiB (" +
           (!training   ? "the largest layer's scores and softmax"
            : everyLayer ? "every self-attention layer's softmax kept for backward, the largest layer's grads beside"
                         : "the recomputed layer's softmax and its backward's grads") +
           "; the U-Net's attention unfused)";
  }
  return bytes;
}

Component datasetActivations(bool explain, const TrainingSetup& s, const MemoryModel& m, int graphs, const DatasetShape& shape,
                             double seq, const std::string& seqHow) {
  const Denoiser& d = s.arch->denoiser;
  const ActivationCoefficients a = m.activations(d.activationFamily);
  const std::string census = written(explain && !a.family.empty(), [&] { return " (" + a.family + " census)"; });
  Component c{"activations", 0, "", Term::Activations};
  const int frames = s.isVideo() ? shape.frames : 1;
  if (d.blocks > 0 && d.hidden > 0) {
    c.term = loraPathTerm(d, a);
    const double perBlock = shape.batch * seq * d.hidden;
    const std::string head =
        written(explain, [&] { return std::to_string(shape.batch) + " × (" + seqHow + ") × " + std::to_string(d.hidden) + " ch × ("; });
    // The block being run backward peaks at `recompute`; the others keep their input (checkpointing) or
    // everything they saved for backward.
    const auto path = a.loraPath(s.loraInputsFp32);
    const double frozen = s.noLayerAdapted ? a.frozenBlockShare : 1;  // no adapted Linear keeps its input
    const double saved = path.block * frozen, recompute = path.recompute * frozen;
    const double kept = s.gradientCheckpointing ? m.checkpointBytesPerTokenChannel : saved;
    const std::string keptHow = written(explain, [&] {
      return fixedText(kept, s.gradientCheckpointing ? 0 : 1) +
             (s.gradientCheckpointing ? " B checkpointed input" : " B saved for backward (no gradient checkpointing)");
    });
    const std::string graphsHow = written(explain && graphs > 1, [&] { return std::to_string(graphs) + " graphs × "; });
    c.bytes = (graphs * (d.blocks - 1) * kept + recompute) * perBlock;
    c.how = written(explain, [&] {
      return head + graphsHow + std::to_string(d.blocks - 1) + " blocks × " + keptHow + " + " + fixedText(recompute, 1) +
             " B the block in backward" + census + (s.loraInputsFp32 ? "" : ", autocast") + (s.noLayerAdapted ? ", no adapted layer" : "") + ")";
    });
    // Text-fusion blocks run before the main ones, outside checkpointing: every pass keeps its saved set until the backward.
    if (d.textFusionPasses > 0 && d.textFusionHidden > 0 && d.textTokens > 0) {
      const double fusion = graphs * shape.batch * static_cast<double>(d.textTokens) * d.textFusionHidden * d.textFusionPasses * saved;
      c.bytes += fusion;
      if (explain) c.how += " + the text fusion's " + std::to_string(d.textFusionPasses) + " block passes × " + std::to_string(shape.batch) + " × " +
               std::to_string(d.textTokens) + " text tokens × " + std::to_string(d.textFusionHidden) + " ch × " + fixedText(saved, 1) +
               " B saved for backward (not checkpointed)";
    }
    // A pixel head runs backward first, while every block still holds what it kept.
    const double pixels = shape.batch * std::pow(static_cast<double>(shape.resolution), 2);
    const double headPath = graphs * d.blocks * kept * perBlock + pixels * d.pixelHeadTrainingBytesPerPixel;
    if (d.pixelHeadTrainingBytesPerPixel > 0 && headPath > c.bytes) {
      c.bytes = headPath;
      c.term = Term::Activations;
      c.how = written(explain, [&] {
        return head + graphsHow + std::to_string(d.blocks) + " blocks × " + keptHow + ") + " + std::to_string(shape.batch) + " × " +
               std::to_string(shape.resolution) + "² px × " + fixedText(d.pixelHeadTrainingBytesPerPixel, 0) +
               " B the pixel head in backward (CPU census)";
      });
    }
  } else {
    // UNets: bytes per latent pixel per sample, from the census of the whole UNet.
    const double latent = std::pow(shape.resolution / static_cast<double>(s.arch->vae.spatial), 2) * frames;
    const double k = s.gradientCheckpointing ? a.unetBytesPerLatentPixelCheckpointed : a.unetBytesPerLatentPixelFull;
    c.bytes = graphs * shape.batch * latent * k;
    c.how = written(explain, [&] {
      return (graphs > 1 ? std::to_string(graphs) + " graphs × " : "") + std::to_string(shape.batch) + " × " + fixedText(latent, 0) +
             " latent px × " + fixedText(k, 0) + " B/px (UNet" + (s.gradientCheckpointing ? ", checkpointed" : ", no checkpointing") +
             census + ")";
    });
  }
  c.bytes *= m.activationMultiplier * s.activationBytes / kBf16;
  std::string attentionHow;
  c.bytes += graphs * plainAttentionBytes(s, m, shape.resolution, shape.resolution, shape.batch, true, explain ? &attentionHow : nullptr);
  if (!explain) return c;
  if (s.activationBytes != kBf16) c.how += " × " + fixedText(s.activationBytes / kBf16, 0) + " (fp32, no half precision)";
  c.how += " × " + fixedText(m.activationMultiplier, 2) + " (GPU kernels' extra working memory); largest: datasets[" +
           std::to_string(shape.index) + "] at " + std::to_string(shape.resolution) + " px" +
           (frames > 1 ? ", " + std::to_string(frames) + " frames" : "") + attentionHow;
  return c;
}

// A boolean attention mask the model hands SDPA in full (Denoiser::attentionMask), which SDPA turns into an additive bias
// in the compute dtype in every attention call (ATen convert_boolean_attn_mask). "built_per_forward" (Chroma): each
// forward starts by building [batch, heads, S, S], a float32 [S, S] outer product repeated per batch element and head,
// then int32, then bool (8 B per element at once, before any block runs), and holds the bool mask through the forward
// and backward. "expanded_per_call" (PRX): a key-padding mask expanded to [batch, heads, image tokens, S + text] in each
// call, nothing held between calls but the bias. `graphs`: forward graphs alive, each holding its own mask; `biases`:
// the biases alive at once (one under gradient checkpointing or while sampling; every block's, saved for backward,
// without checkpointing). `beside`: the activations the forward's start does not hold yet.
Component attentionMask(bool explain, const TrainingSetup& s, int batch, double seq, int graphs, int biases, double beside) {
  const Denoiser& d = s.arch->denoiser;
  const bool built = d.attentionMask == "built_per_forward";
  if ((!built && d.attentionMask != "expanded_per_call") || d.heads <= 0) return {"attention mask", 0, "", Term::Activations};
  const double keys = seq + (d.jointAttention ? 0 : d.textTokens);  // text that is no query still is a key
  const double elements = batch * static_cast<double>(d.heads) * seq * keys;
  const std::string size = written(explain, [&] {
    return std::to_string(batch) + " × " + std::to_string(d.heads) + " heads × " + fixedText(seq, 0) +
           (keys == seq ? "²" : " × " + fixedText(keys, 0));
  });
  const std::string bias = written(explain, [&] {
    return std::to_string(biases) + " × " + fixedText(s.activationBytes, 0) + " B: the bias SDPA makes of it" +
           (biases > 1 ? " in every block, saved for backward" : "");
  });
  if (!built) {
    return {"attention mask", elements * biases * s.activationBytes, written(explain, [&] { return size + " × " + bias; }), Term::Activations};
  }
  const double building = 8 * elements + 4 * seq * seq;
  const double held = elements * (graphs + biases * s.activationBytes);
  if (building - beside > held) {
    return {"attention mask", building - beside, written(explain, [&] {
              return size + " × 8 B (float32 and int32 at once, as each forward builds it) + the [S, S] float32, less the activations not yet there";
            }),
            Term::Activations};
  }
  return {"attention mask", held, written(explain, [&] {
            return size + " × (" + (graphs > 1 ? std::to_string(graphs) + " graphs × " : "") + "1 B bool + " + bias + ")";
          }),
          Term::Activations};
}

// The training step's activations and attention mask for the dataset whose pair is the largest.
std::pair<Component, Component> trainingActivations(bool explain, const TrainingSetup& s, const MemoryModel& m, int graphs) {
  std::vector<DatasetShape> shapes = s.datasets;
  if (shapes.empty()) shapes.push_back({});
  std::pair<Component, Component> best{{"activations", 0, written(explain, [] { return "no dataset"; }), Term::Activations},
                                       {"attention mask", 0, "", Term::Activations}};
  for (const auto& shape : shapes) {
    std::string seqHow;
    const int frames = s.isVideo() ? shape.frames : 1;
    const double seq = sequenceLength(explain, s, shape.resolution, shape.resolution, frames, shape.controls, seqHow);
    Component act = datasetActivations(explain, s, m, graphs, shape, seq, seqHow);
    const int biases = s.gradientCheckpointing ? 1 : graphs * s.arch->denoiser.blocks;
    Component mask = attentionMask(explain, s, shape.batch, seq, graphs, biases, act.bytes);
    if (act.bytes + mask.bytes > best.first.bytes + best.second.bytes) best = {std::move(act), std::move(mask)};
  }
  return best;
}

// The conditional and unconditional passes share one batch while sampling unless the pipeline runs them in turn.
int samplingBatch(const TrainingSetup& s) {
  const Denoiser& d = s.arch->denoiser;
  return d.cfgInSampling && d.cfgBatched && s.guidanceScale > 1 ? 2 : 1;
}

// `seq`: the sample's tokens (sequenceLength), `seqHow` how they were counted.
Component samplingActivations(bool explain, const TrainingSetup& s, const MemoryModel& m, double seq, const std::string& seqHow) {
  const Denoiser& d = s.arch->denoiser;
  const ActivationCoefficients a = m.activations(d.activationFamily);
  const int cfg = samplingBatch(s);
  // A LoRA network stays active while sampling: every adapted Linear runs its fp32 LoRA path beside the base.
  const bool lora = !s.fullFinetune && !s.noLayerAdapted;
  const std::string cfgHow = written(explain, [&] { return std::to_string(cfg) + (cfg == 2 ? " (CFG) × " : " × "); });
  const double precision = s.activationBytes / kBf16;  // the census's figures are for bf16
  if (d.blocks <= 0 || d.hidden <= 0) {
    const double k = a.unetInferenceBytesPerLatentPixel * precision;
    std::string attentionHow;
    const double scores = plainAttentionBytes(s, m, s.sampleWidth, s.sampleHeight, cfg, false, explain ? &attentionHow : nullptr);
    return {"sampling activations", cfg * seq * k + scores,
            written(explain, [&] { return cfgHow + "(" + seqHow + ", one per latent px) × " + fixedText(k, 0) + " B/px (UNet)" + attentionHow; }),
            Term::Activations};
  }
  const double k = (lora ? a.loraPath(s.loraInputsFp32).inference : a.inferenceBytesPerTokenChannel) * precision;
  // The plain model's sampling figure is the CPU census's for every family.
  const Term term = d.activationFamily.empty() ? Term::ActivationsUnmeasured : lora ? loraPathTerm(d, a) : Term::Activations;
  // A pixel head runs after the blocks on the whole image at once (AI Toolkit does not tile it, as ComfyUI does).
  const double head = d.pixelHeadSamplingBytesPerPixel * precision;
  const double pixels = static_cast<double>(s.sampleWidth) * s.sampleHeight;
  if (cfg * pixels * head > cfg * seq * d.hidden * k) {
    return {"sampling activations", cfg * pixels * head, written(explain, [&] {
              return cfgHow + std::to_string(s.sampleWidth) + "×" + std::to_string(s.sampleHeight) + " px × " + fixedText(head, 0) +
                     " B the pixel head (CPU census)";
            }),
            Term::Activations};
  }
  return {"sampling activations", cfg * seq * d.hidden * k, written(explain, [&] {
            return cfgHow + "(" + seqHow + ") × " + std::to_string(d.hidden) + " ch × " + fixedText(k, 1) + " B" +
                   (lora ? " (LoRA path active)" : "");
          }),
          term};
}

// What the step encodes before its forward, under no_grad: a dataset that does not cache latents, its whole batch
// at once (BaseSDTrainProcess.process_general_training_batch → encode_images; sd-scripts' train_network.py alike),
// and an edit model's control images, one control of the batch at a time at its encoded size. That working memory
// and the step's activations are never alive together.
Component inStepEncode(bool explain, const TrainingSetup& s, const MemoryModel& m, const Behaviour& b) {
  Component best{"VAE encode", 0, "", Term::Vae};
  auto keep = [&](Component c, const char* why) {
    if (explain) c.how += std::string(" (") + why + ")";
    if (c.bytes > best.bytes) best = std::move(c);
  };
  for (const auto& shape : s.datasets) {
    const int frames = s.isVideo() ? shape.frames : 1;
    if (!shape.cachesLatents) {
      keep(vaeWork(explain, s, m, b, false, shape.resolution, shape.resolution, frames, false, shape.batch), "latents not cached: the batch is encoded in the step");
    }
    if (s.encodesControlsInStep(shape)) {
      const Denoiser& d = s.arch->denoiser;
      const long side = d.controlMaxPixels > 0 && !s.controlsAtTargetSize ? std::lround(std::sqrt(d.controlMaxPixels)) : shape.resolution;
      keep(vaeWork(explain, s, m, b, false, side, side, 1, false, shape.batch), "a control image, encoded in every step");
    }
  }
  return best;
}

void addComponent(PhaseEstimate& phase, Component c) {
  if (c.bytes <= 0) return;
  if (phase.components.empty()) phase.components.reserve(16);  // a phase holds a dozen at most: grown once, not four times
  phase.components.push_back(std::move(c));
}

}  // namespace


double trainableParams(const TrainingSetup& s) {
  if (s.fullFinetune) {
    // A fine-tune that trains the text encoders trains all of them (sdxl_train.py, fine_tune.py, train_db.py; AI
    // Toolkit's prepare_optimizer_params): their parameters join the optimizer.
    double p = residentDenoiserParams(s);
    if (s.trainsTextEncoders()) p += s.arch->textEncoderParams();
    return p;
  }
  if (s.noLayerAdapted) return 0;
  double perRank = s.arch->denoiser.loraParamsPerRank;
  // A trained text encoder carries its own LoRA (the UNet families').
  if (s.trainsTextEncoders()) {
    for (const auto& te : s.arch->textEncoders) perRank += te.loraParamsPerRank;
  }
  // LoKr with AI Toolkit's defaults (full rank, automatic factor) has about as many parameters as a
  // rank-4 LoRA on the same modules.
  if (s.networkType == "lokr") return perRank * 4;
  return perRank * std::max(1.0, s.rank);
}

namespace {

// Optimizer state per trained parameter. A factored second moment (Adafactor's) keeps n + m fp32 figures per n×m
// matrix, 4·(n+m)/(n·m) B per param: a LoRA's rank-wide matrices ≈ 4/rank + 4/width, a transformer's square ones
// 8/width; a UNet's convolutions factor over their kernel and keep far more (architectures.yaml's measured figure).
double optimizerStateBytes(const TrainingSetup& s, const OptimizerState* opt, double paramBytes) {
  if (opt == nullptr) return 8.0;  // AdamW's, the default
  double bytes = opt->stateInParamDtype ? opt->stateBytesPerParam * paramBytes / 4 : opt->stateBytesPerParam;
  if (opt->factoredSecondMoment) {
    const Denoiser& d = s.arch->denoiser;
    const double perWidth = d.hidden > 0 ? 4.0 / d.hidden : 0;
    if (!s.fullFinetune) bytes += 4.0 / std::max(1.0, s.rank) + perWidth;
    else bytes += d.factoredStateBytesPerParam > 0 ? d.factoredStateBytesPerParam : 2 * perWidth;
  }
  return bytes;
}

// Gradients: every trained tensor's until the step, or, when the step runs in the backward pass, one tensor's grad
// and the step's fp32 working copies of it (memory.yaml fused_step_fp32_copies), for the largest trained tensor.
Component gradients(bool explain, const TrainingSetup& s, const MemoryModel& m, const OptimizerState* opt, double pTrain, double gBytes) {
  const bool fused = s.fusedBackward || (opt && opt->freesGradsInBackward);
  if (!fused) {
    return {"gradients", pTrain * gBytes, written(explain, [&] { return paramsText(pTrain) + " × " + fixedText(gBytes, 0) + " B"; }),
            Term::Trainable};
  }
  const Denoiser& d = s.arch->denoiser;
  // A LoRA's widest matrix is rank × the widest Linear's input or output (the MLP's); a UNet states no width, so
  // all of its LoRA is counted.
  const double lora = d.hidden > 0 ? std::max(1.0, s.rank) * d.mlpRatio * d.hidden : pTrain;
  const double largest = std::min(pTrain, s.fullFinetune ? d.largestTensor() : lora);
  const double perElement = gBytes + m.fusedStepFp32Copies * 4;
  return {"gradients", largest * perElement, written(explain, [&] {
            return std::string("freed as the backward pass reaches them (") + (s.fusedBackward ? "--fused_backward_pass" : opt->name) +
                   "): the largest trained tensor's, " + paramsText(largest) + " × (" + fixedText(gBytes, 0) + " B grad + " +
                   fixedText(m.fusedStepFp32Copies, 0) + " fp32 working copies of the step)";
          }),
          Term::Trainable};
}

// sd-scripts' checkpointing workaround for a trained text encoder: its embedding tables require grad, which no
// optimizer owns, so their full-size grads stay from the first backward on (train_network.py
// prepare_text_encoder_grad_ckpt_workaround, 48d368f).
Component embeddingGrads(bool explain, const TrainingSetup& s, const MemoryModel& m, double dtype) {
  if (!s.textEncoderEmbeddingGrads || !s.trainsTextEncoders() || !s.gradientCheckpointing) return {"text encoder embedding grads", 0, "", Term::Trainable};
  const double p = textEmbeddingParams(s, m);
  return {"text encoder embedding grads", p * dtype, written(explain, [&] {
            return paramsText(p) + " × " + fixedText(dtype, 0) +
                   " B: the embedding tables' grads, which no optimizer frees (sd-scripts' checkpointing workaround)";
          }),
          Term::Trainable};
}

Estimate estimateAssuming(const TrainingSetup& s, const MemoryModel& m, const GpuTarget& gpu, const Behaviour& behaviour, Detail detail) {
  const bool explain = detail == Detail::Explained;
  Estimate e;
  e.gpu = gpu;
  e.coarse = s.arch->coarse;
  const Component context{"CUDA context", m.cudaContextBytes, written(explain, [] { return "CUDA context and cuBLAS/cuDNN workspaces"; }),
                          Term::Fixed};
  const Component denoiser = denoiserWeights(explain, s, m, behaviour);
  const Component encoder = textEncoderWeights(explain, s, m);
  const Component vae = vaeWeights(explain, s, m);
  const Component extras = residentExtras(explain, s);
  const double dtype = dtypeBytes(m, s.trainDtype);
  const Denoiser& d = s.arch->denoiser;

  // Trainable state: LoRA weights and grads in fp32 (AI Toolkit forces them), optimizer state, EMA.
  const double pTrain = trainableParams(s);
  const std::string optName = s.optimizer.empty() ? "adamw" : s.optimizer;
  const OptimizerState* opt = m.optimizer(optName);
  const double adapterBytes = s.adapterBytes > 0 ? s.adapterBytes : m.loraWeightBytes;
  const double paramBytes = s.fullFinetune ? dtype : adapterBytes;  // of the trained parameters
  const double optBytes = optimizerStateBytes(s, opt, paramBytes);
  const double wBytes = s.fullFinetune ? 0 : adapterBytes;  // full fine-tune: the weights are the model's
  const double gBytes = s.fullFinetune ? dtype : s.adapterBytes > 0 ? s.adapterBytes : m.loraGradBytes;
  const Component trainWeights{"trainable weights", pTrain * wBytes, written(explain, [&] {
                                 const std::string what =
                                     s.fullFinetune ? std::string("full fine-tune") + (s.trainsTextEncoders() ? ", the text encoders too" : "")
                                                    : s.networkType + " rank " + fixedText(s.rank, 0) +
                                                          (s.trainsTextEncoders() ? ", the text encoders' too" : "");
                                 return paramsText(pTrain) + " (" + what + ") × " + fixedText(wBytes, 0) + " B";
                               }),
                               Term::Trainable};
  const Component grads = gradients(explain, s, m, opt, pTrain, gBytes);
  // The accuracy-recovery adapter is plain bf16 Linears that nothing freezes (toolkit/util/quantize.py freezes only the
  // quantized modules under it) and no optimizer holds: every backward writes their .grad, which no zero_grad clears.
  const Component araGrads{"accuracy-recovery adapter gradients",
                           s.accuracyRecoveryAdapter ? residentDenoiserParams(s) * m.araFractionOfBase * kBf16 : 0,
                           written(explain, [] { return "its bf16 weights require grad and are in no optimizer: each backward writes a .grad that stays"; }),
                           Term::Trainable};
  const bool halfStates = opt && opt->stateInParamDtype && paramBytes < 4;
  const Component optState{"optimizer state", pTrain * optBytes, written(explain, [&] {
                             return paramsText(pTrain) + " × " + fixedText(optBytes, optBytes < 0.1 ? 3 : 1) + " B (" + optName +
                                    (opt && opt->factoredSecondMoment ? ", its second moment factored into rows and columns)"
                                     : halfStates                     ? ", its states in the parameters' 16-bit dtype)"
                                                                      : ")");
                           }),
                           Term::Trainable};
  // toolkit/ema.py keeps shadow_params = p.clone(): the trainable weights' own dtype (fp32 LoRA, the
  // training dtype for a full fine-tune) — when the trainer builds it at all (memory.yaml ema_resident).
  const double emaBytes = s.fullFinetune ? dtype : adapterBytes;
  const bool emaOnGpu = s.ema && m.emaResident && behaviour.emaBuilt;
  const Component ema{"EMA copy", emaOnGpu ? pTrain * emaBytes : 0,
                      written(explain, [&] { return paramsText(pTrain) + " × " + fixedText(emaBytes, 0) + " B (a clone of the trainable weights)"; }),
                      Term::Trainable};

  auto finish = [&](PhaseEstimate& phase) {
    totalPhase(phase, m, e.coarse, detail);
    e.phases.push_back(std::move(phase));
  };

  // load: modules that are not quantized go to the GPU as they are.
  {
    PhaseEstimate load{Phase::Load};
    addComponent(load, context);
    if (!s.quantize && !parksModules(s)) addComponent(load, denoiser);
    if (!s.quantizeTe && !s.cacheTextEmbeddings && !s.unloadTextEncoder) addComponent(load, encoder);
    else if (!s.quantizeTe) {
      Component te = encoder;
      if (explain) te.how += " (loaded before it is cached or unloaded)";
      addComponent(load, te);
    }
    addComponent(load, vae);
    finish(load);
  }

  // quantize: the transformer, then the text encoder.
  if (s.quantize || s.quantizeTe) {
    PhaseEstimate q{Phase::Quantize};
    addComponent(q, context);
    const double pAll = d.params;
    double transformerPeak = 0;
    std::string how;
    if (s.quantize && d.quantizeWholeOnGpu && !lowVramQuantizesBlockwise(s)) {
      // Experts (Wan 2.2 A14B) are moved and quantized one after the other: one in full precision, the
      // ones before it already quantized.
      const int experts = std::max(1, d.experts);
      const double pExpert = pAll / experts;
      const double done = (experts - 1) * weightBytes(m, pExpert, true, s.qtype, s.trainDtype);
      transformerPeak = pExpert * dtype + done;
      if (explain) {
        how = paramsText(pExpert) + " × " + fixedText(dtype, 0) + " B: this loader quantizes the whole " +
              (s.trainDtype.empty() ? "fp32" : s.trainDtype) + " transformer on the GPU (low_vram quantizes on the CPU)";
        if (experts > 1) how += ", one expert at a time, the other " + std::to_string(experts - 1) + " already quantized";
      }
    } else if (s.quantize) {
      Component qd = weights(explain, m, "", pAll, true, s.qtype, s.trainDtype);
      transformerPeak = qd.bytes + d.largestBlockParams * dtype;
      if (explain) how = qd.how + " + one block in " + (s.trainDtype.empty() ? "fp32" : s.trainDtype) + " being quantized";
      if (d.transformerToGpuLast) {
        transformerPeak = d.largestBlockParams * dtype;
        how = written(explain, [] { return "quantize_model moves one block at a time to the GPU, quantizes it and sends it back"; });
      }
      if (lowVramQuantizesBlockwise(s)) {
        transformerPeak = d.largestBlockParams * dtype;
        how = written(explain, [] { return "quantized block by block (low_vram); one block on the GPU at a time"; });
        if (const double extras = d.extrasQuantizedOnGpuParams; extras > 0) {
          // then the whole transformer comes back to quantize what lies outside its blocks
          const Component blocks = weights(explain, m, "", pAll - extras, true, s.qtype, s.trainDtype);
          transformerPeak = std::max(transformerPeak, blocks.bytes + extras * dtype);
          if (explain) {
            how = "the blocks quantized one at a time (low_vram), then the whole transformer moved back to quantize the " +
                  paramsText(extras) + " outside them: " + blocks.how + " + " + fixedText(dtype, 0) + " B each of those";
          }
        }
      }
    } else {
      transformerPeak = parksModules(s) ? 0 : denoiser.bytes;
      how = denoiser.how;
    }
    // A transformer quantized on the CPU comes back to the GPU before the text encoder is quantized,
    // unless low_vram parks it there (the legacy FLUX path does not) or the loader moves it last.
    const double transformerAfter = parksModules(s) || (s.quantize && d.transformerToGpuLast) ? 0
                                    : s.quantize ? weightBytes(m, pAll, true, s.qtype, s.trainDtype)
                                                 : denoiser.bytes;
    // Loaders load and quantize the text encoders one at a time on the GPU, in architectures.yaml's order: the
    // largest is quantized beside those listed before it, in their final form (FLUX's CLIP-L comes after T5);
    // klein and LTX-2.x quantize on the CPU, layer offloading streams them. One that the loader quantizes before
    // it loads the transformer (HiDream's Llama) is quantized alone, then stays beside the transformer unless
    // low_vram parks it.
    double encoderPeak = 0, firstPeak = 0, firstAfter = 0;
    std::string encoderHow, firstHow;
    if (s.quantizeTe) {
      const double pTe = s.arch->textEncoderParams();
      const bool onCpu = d.quantizeTeOnCpu || (s.layerOffloading && s.arch->layerOffloading && s.offloadTextEncoder > 0);
      const auto quantizedFirst = [&](const TextEncoder& te) { return te.quantizedBeforeTransformer && !te.neverQuantized && !onCpu; };
      const TextEncoder* largest = nullptr;
      double pFirst = 0, firstBytes = 0;
      for (const auto& te : s.arch->textEncoders) {
        if (quantizedFirst(te)) {
          pFirst += te.params;
          firstBytes += quantizedTextEncoderBytes(s, m, te);
        } else if (!te.neverQuantized && (largest == nullptr || te.params > largest->params)) {
          largest = &te;
        }
      }
      if (pFirst > 0) {
        firstPeak = pFirst * dtype;
        if (explain) firstHow = paramsText(pFirst) + " × " + fixedText(dtype, 0) + " B: quantized on the GPU before the transformer is loaded";
        firstAfter = parksModules(s) ? 0 : firstBytes;
      }
      if (onCpu) {
        encoderPeak = encoder.bytes + pTe * 0.05 * dtype;
        if (explain) encoderHow = encoder.how + " + a slice in full precision";
      } else if (largest != nullptr && encoder.bytes > 0) {
        double before = 0;  // the encoders loaded before the largest, in their final form
        for (const auto& te : s.arch->textEncoders) {
          if (&te == largest) break;
          if (!quantizedFirst(te)) before += quantizedTextEncoderBytes(s, m, te);
        }
        encoderPeak = before + largest->params * dtype + firstAfter;
        if (explain) {
          encoderHow = largest->name + " " + paramsText(largest->params) + " × " + fixedText(dtype, 0) + " B moved to the GPU and quantized there" +
                       (before + firstAfter > 0 ? ", the encoders loaded before it beside it" : "");
        }
      }
    }
    const double transformerStage = transformerPeak + firstAfter;
    if (firstPeak >= transformerStage && firstPeak >= transformerAfter + encoderPeak) {
      addComponent(q, {"text encoder being quantized", firstPeak, firstHow, Term::Weights});
    } else if (transformerStage >= transformerAfter + encoderPeak) {
      addComponent(q, {"transformer being quantized", transformerPeak, how, Term::Weights});
      addComponent(q, {"text encoder quantized first", firstAfter, written(explain, [] { return "quantized before the transformer was loaded"; }),
                       Term::Weights});
    } else {
      addComponent(q, {"transformer weights", transformerAfter, s.quantize ? written(explain, [] { return "quantized"; }) : denoiser.how,
                       Term::Weights});
      addComponent(q, {"text encoder being quantized", encoderPeak, encoderHow, Term::Weights});
    }
    finish(q);
  }

  // te_cache: captions are encoded with the transformer moved to the CPU.
  if (s.cacheTextEmbeddings) {
    PhaseEstimate te{Phase::TeCache};
    addComponent(te, context);
    addComponent(te, encoder);
    finish(te);
  }

  // latent_cache: only the VAE is on the GPU while the dataset is encoded.
  if (s.anyLatentCache()) {
    PhaseEstimate lc{Phase::LatentCache};
    addComponent(lc, context);
    addComponent(lc, vae);
    Component work{"VAE encode", 0, "", Term::Vae};
    for (const auto& shape : s.datasets) {
      if (!shape.cachesLatents) continue;
      Component c = vaeWork(explain, s, m, behaviour, false, shape.resolution, shape.resolution, s.isVideo() ? shape.frames : 1);
      if (c.bytes > work.bytes) work = c;
    }
    addComponent(lc, work);
    finish(lc);
  }

  // Sampling: transformer, VAE and (unless its embeddings are cached) the text encoder on the GPU.
  // Wan with low_vram samples "aggressively" (stagesSampling): the text encoder leaves the GPU once the
  // prompts are encoded, and Wan 2.2's transformers before the VAE decodes. Every other class holds
  // transformer, text encoder and VAE together (base_model.py generate_images' 'generate' preset).
  const Component emaStore{"EMA swap copy", emaOnGpu ? ema.bytes : 0,
                           written(explain, [] { return "sampling with EMA weights stores the live trainable weights first"; }), Term::Trainable};
  auto samplingPhase = [&](Phase phase, bool withTrainingState) {
    PhaseEstimate sp{phase};
    std::string seqHow;
    const double seq = sequenceLength(explain, s, s.sampleWidth, s.sampleHeight, s.isVideo() ? s.sampleFrames : 1, s.sampleControls, seqHow);
    const Component act = samplingActivations(explain, s, m, seq, seqHow);
    const Component mask = attentionMask(explain, s, samplingBatch(s), seq, 1, 1, act.bytes);
    const bool tiled = tilesSamplingDecode(s, behaviour.recentLowVramTiles);
    const Component decode = vaeWork(explain, s, m, behaviour, true, s.sampleWidth, s.sampleHeight, s.isVideo() ? s.sampleFrames : 1, tiled);
    Component te = encoder;
    if (s.cacheTextEmbeddings) te = {"text encoder weights", 0, "", Term::Weights};
    if (explain && s.unloadTextEncoder) te.how += " (unload_text_encoder brings it back to the GPU for samples)";
    // The network and EMA exist before the baseline sample; optimizer state only after the first step.
    std::vector<Component> state = {trainWeights, ema};
    if (withTrainingState) state = {trainWeights, optState, araGrads, ema, emaStore};
    auto stage = [&](std::vector<Component> parts) {
      PhaseEstimate p{phase};
      addComponent(p, context);
      for (auto& c : parts) addComponent(p, std::move(c));
      for (const auto& c : state) addComponent(p, c);
      for (const auto& c : p.components) p.peakBytes += c.bytes;
      return p;
    };
    std::vector<PhaseEstimate> stages;
    if (stagesSampling(s)) {
      // The prompts are encoded under the 'generate' device preset (every module on the GPU) unless the class
      // parks the others first; the text encoder then leaves for the denoising, the VAE too where the pipeline
      // sends it away, and the transformer before the decode where it does.
      stages.push_back(samplingDoes(s, "encodes_prompts_alone") ? stage({te}) : stage({denoiser, extras, te, vae}));
      stages.push_back(samplingDoes(s, "denoises_alone") ? stage({denoiser, extras, act, mask}) : stage({denoiser, extras, vae, act, mask}));
      stages.push_back(samplingDoes(s, "decodes_alone") ? stage({vae, decode}) : stage({denoiser, extras, vae, decode}));
    } else {
      // Denoising and decoding run one after the other: the larger of the two sets the peak.
      if (act.bytes + mask.bytes >= decode.bytes) {
        stages.push_back(stage({denoiser, extras, te, vae, act, mask}));
      } else {
        stages.push_back(stage({denoiser, extras, te, vae, decode}));
      }
    }
    auto worst = std::max_element(stages.begin(), stages.end(),
                                  [](const PhaseEstimate& a, const PhaseEstimate& b) { return a.peakBytes < b.peakBytes; });
    sp.components = worst->components;
    finish(sp);
  };
  if (s.baselineSample) samplingPhase(Phase::BaselineSample, false);

  // train_step: weights, trainable state, activations of the largest bucket.
  {
    PhaseEstimate t{Phase::TrainStep};
    addComponent(t, context);
    addComponent(t, denoiser);
    addComponent(t, extras);
    if (!s.cacheTextEmbeddings && !s.unloadTextEncoder) addComponent(t, encoder);
    if (s.vaeStaysResident()) addComponent(t, vae);
    addComponent(t, trainWeights);
    addComponent(t, grads);
    addComponent(t, araGrads);
    addComponent(t, embeddingGrads(explain, s, m, dtype));
    addComponent(t, optState);
    addComponent(t, ema);
    const auto [act, mask] = trainingActivations(explain, s, m, s.preservationLoss && behaviour.preservationInOneBackward ? 2 : 1);
    const Component dequantized = dequantizedForBackward(explain, s, m);
    const Component merged = mergedAdapterWeights(explain, s, m);
    const Component slack{"allocator slack", act.bytes * m.allocatorFraction, written(explain, [&] {
                            return fixedText(m.allocatorFraction * 100, 0) + "% of activations (caching-allocator fragmentation)";
                          }),
                          Term::Activations};
    // The in-step encode and the forward and backward run one after the other: the larger sets the peak.
    const Component encode = inStepEncode(explain, s, m, behaviour);
    if (encode.bytes > act.bytes + mask.bytes + dequantized.bytes + merged.bytes + slack.bytes) {
      addComponent(t, encode);
    } else {
      addComponent(t, act);
      addComponent(t, mask);
      addComponent(t, dequantized);
      addComponent(t, merged);
      addComponent(t, slack);
    }
    finish(t);
  }

  if (s.periodicSample) samplingPhase(Phase::Sample, true);

  concludeEstimate(e);
  return e;
}

}  // namespace

Estimate estimate(const TrainingSetup& s, const MemoryModel& m, const GpuTarget& gpu, Detail detail) {
  const bool explain = detail == Detail::Explained;
  Behaviour assumed{.offloadRingSlots = m.layerOffloadRingLinears};
  // A card before Ampere runs bf16 convolutions without cuDNN whatever the torch: the 3D coder's columns are expected.
  if (gpu.bf16ConvolutionsWithoutCudnn() && canonicalDtype(s.trainDtype) == "bfloat16") {
    assumed.conv3dWithoutCudnn = gpu.name + " (compute capability " + fixedText(gpu.computeCapability, 1) +
                                 ") runs bf16 convolutions without cuDNN, whatever the torch";
  }
  Estimate e = estimateAssuming(s, m, gpu, assumed, detail);
  // The alternatives only move the range's ends: their own arithmetic is never shown.
  const auto widen = [&](const TrainingSetup& setup, const Behaviour& behaviour, auto why) {
    widenWith(e, estimateAssuming(setup, m, gpu, behaviour, Detail::Figures), written(explain, why));
  };
  const bool offloads = s.layerOffloading && s.arch->layerOffloading && s.offloadTransformer > 0;
  auto olderRelease = [&](auto change, auto why) {
    if (!s.aiToolkitHistory) return;  // another trainer's job on this arithmetic: AI Toolkit's releases are not its
    Behaviour older = assumed;
    change(older);
    widen(s, older, why);
  };
  if (s.ema && m.emaResident) {
    olderRelease([](Behaviour& b) { b.emaBuilt = false; }, [] { return "AI Toolkit before 82190b41 (2026-06-07) keeps no EMA copy"; });
  }
  const std::string tilingCommit = recentTilingCommit(s);
  if (!tilingCommit.empty()) {
    olderRelease([](Behaviour& b) { b.recentLowVramTiles = false; },
                 [&] { return "AI Toolkit before " + tilingCommit + " decodes " + s.arch->label + " samples untiled"; });
  }
  // torch 2.9 with its own cuDNN (before 9.15) runs half-precision 3D convolutions without cuDNN. AI Toolkit pinned
  // torch 2.9.1 for months, whose releases before 2026-07-10 also decoded Wan and Qwen-Image samples untiled; another trainer's
  // job may run on such a torch too (musubi-tuner's cu130 extra asks for torch >= 2.9.1), its releases not in question.
  // (On a card before Ampere no torch runs them through cuDNN: the assumed estimate holds the columns already.)
  if (const VaeConstants* v = m.vae(s.arch->vae.family);
      v != nullptr && v->vol2colChannels > 0 && s.activationBytes < 4 && assumed.conv3dWithoutCudnn.empty()) {
    Behaviour torch29 = assumed;
    torch29.conv3dWithoutCudnn = "torch 2.9 without cuDNN for half-precision 3D convolutions";
    if (s.aiToolkitHistory) torch29.recentLowVramTiles = false;
    widen(s, torch29, [&] {
      std::string why = "torch 2.9 with cuDNN before 9.15 runs bf16 3D convolutions without cuDNN (slow_conv3d's vol2col buffer)";
      if (s.aiToolkitHistory) {
        why = "AI Toolkit installed with torch 2.9.1 (2025-12-23 to 2026-07-27) runs bf16 3D convolutions without cuDNN "
              "(slow_conv3d's vol2col buffer)";
        if (!tilingCommit.empty()) {
          why += " and, before " + tilingCommit.substr(0, tilingCommit.find(' ')) + ", decodes " + s.arch->label + " samples untiled";
        }
      }
      // What removes it, in the reason the borderline finding quotes: a torch whose cuDNN runs them again.
      return why + "; not with cuDNN 9.15 or later (torch 2.10 on, or a newer nvidia-cudnn-cu12 / -cu13 wheel)";
    });
  }
  if (offloads) {
    olderRelease([](Behaviour& b) { b.offloadRingSlots = 4; },
                 [] { return "AI Toolkit before c78b1404 (2026-06-07) offloads through 2 + 2 slots"; });
  }
  if (s.preservationLoss) {
    olderRelease([](Behaviour& b) { b.preservationInOneBackward = false; },
                 [] { return "AI Toolkit before cac3815b (2026-06-08) runs the preservation loss's backward on its own"; });
  }
  if (s.loraTargetsNarrowed) {
    TrainingSetup bare = s;
    bare.noLayerAdapted = true;
    widen(bare, assumed, [] { return "network_kwargs narrows the adapted layers, which oomlint does not cost: as low as an adapter on none"; });
  }
  concludeEstimate(e);
  return e;
}

}  // namespace oomlint
