// The generation estimator's arithmetic on a synthetic model and synthetic tool constants, every
// component computed by hand (the numbers in the comments), so the test does not move with the data.
#include <catch2/catch.hpp>

#include "systems/webui/generation_estimate.h"
#include "test_support.h"

using namespace oomlint;
using Catch::Matchers::WithinRel;

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

Architecture paperUnet() {
  Architecture a;
  a.arch = "paper";
  a.label = "Paper UNet";
  a.kind = "image";
  a.denoiser.params = 1e9;
  a.denoiser.largestBlockParams = 2e8;
  a.denoiser.cfgInSampling = true;
  a.textEncoders = {{"te", 2e8}};
  a.vae = {"paper-vae", 1e8, 4, 8, 1};
  a.coarse = false;
  return a;
}

GenerationFamily paperFamily() {
  GenerationFamily f;
  f.id = "paper";
  f.arch = "paper";
  f.tools = {"a1111", "comfyui"};
  f.attentionHeads = 4;
  f.attentionDownsample = 8;
  f.unetActBytesPerLatentPixel = 10000;
  f.comfyMemoryFactor = 1.0;  // ComfyUI's guess: 4096 latent px × 2 B × 0.01 × 1.0 MiB = 81.92 MiB at 512², one pass
  return f;
}

WebUiKnowledge paperTools() {
  WebUiKnowledge w;
  w.attention = {{"paper", "paper attention", 2, false, 0, 0, true}};  // two fp16 score matrices live
  w.displayBytes = 256 * kMiB;
  // A one-stage decoder at full resolution, 500 channels in, whose ResnetBlock keeps two input-width maps
  // live: K = 2 × 500 = 1000 B per output pixel per element byte.
  w.vaeDecoderFamilies = {"paper-vae"};
  w.vaeDecoderStages = {{500, 250, 1}};
  w.vaeResnetStyles = {{"paper", {{2, 0}, {1, 1}}}};
  w.vaeResnetStyleByTool = {"paper", "paper", "paper"};
  w.vaeNaiveAttentionMatrices = 2;
  w.comfyInferenceBytes = 512 * kMiB;
  w.comfyReserveBytes = 256 * kMiB;
  return w;
}

MemoryModel paperMemory() {
  MemoryModel m;
  m.cudaContextBytes = 512 * kMiB;
  m.vaes = {{"paper-vae", 2000, 1000, 1}};
  return m;  // every uncertainty 0: the verdict is the peak against the card
}

GenerationSetup paperSetup(const GenerationFamily& family, const Architecture& arch) {
  GenerationSetup s;
  s.tool = WebUiTool::A1111;
  s.family = &family;
  s.arch = &arch;
  s.width = s.height = 512;
  s.attention = "paper";
  return s;
}

using test::phase;

GpuTarget card(double gib) { return GpuTarget{"card", static_cast<std::uint64_t>(gib * 1024 * kMiB)}; }

}  // namespace

TEST_CASE("the generation estimate on a paper UNet: every phase by hand") {
  const Architecture arch = paperUnet();
  const GenerationFamily family = paperFamily();
  const WebUiKnowledge tools = paperTools();
  const MemoryModel memory = paperMemory();
  GenerationSetup s = paperSetup(family, arch);
  // fixed: context 512 MiB + display 256 MiB = 805,306,368 B.
  // fp16 weights: UNet 1e9 × 2, text encoder 2e8 × 2, VAE 1e8 × 2 = 2.6e9 B.
  const double fixed = 805306368;
  const double unet = 2e9, te = 4e8, vae = 2e8;
  // 512² px: 64 × 64 = 4096 latent px × 2 (cond/uncond batched) × 10,000 B = 81,920,000 B.
  const double activations = 81920000;
  // One score matrix: 2 elements × 4 heads × 4096² tokens × 2 B = 268,435,456 B; the backend keeps 2.
  const double attention = 2 * 268435456.0;
  // The decode: 512² px × 1000 B × 2 B = 524,288,000 B, one image at a time.
  const double decode = 524288000;

  SECTION("A1111 without flags keeps the whole model resident") {
    const GenerationEstimate g = estimateGeneration(s, tools, memory, card(8));
    CHECK_THAT(phase(g.estimate, "text_encode").peakBytes, WithinRel(fixed + unet + te + vae, 1e-12));
    CHECK_THAT(phase(g.estimate, "denoise").peakBytes, WithinRel(fixed + unet + te + vae + activations + attention, 1e-12));
    CHECK_THAT(phase(g.estimate, "vae_decode").peakBytes, WithinRel(fixed + unet + te + vae + decode, 1e-12));
    CHECK(g.estimate.peak().phase == Phase::Denoise);  // 4,024,097,280 B = 3.75 GiB
    CHECK(g.estimate.verdict == Verdict::Fits);
    CHECK(estimateGeneration(s, tools, memory, card(3.5)).estimate.verdict == Verdict::Oom);
  }

  SECTION("--medvram keeps one of text encoder, UNet and VAE at a time") {
    s.offload = Offload::Medvram;
    const GenerationEstimate g = estimateGeneration(s, tools, memory, card(8));
    CHECK_THAT(phase(g.estimate, "text_encode").peakBytes, WithinRel(fixed + te, 1e-12));
    CHECK_THAT(phase(g.estimate, "denoise").peakBytes, WithinRel(fixed + unet + activations + attention, 1e-12));
    CHECK_THAT(phase(g.estimate, "vae_decode").peakBytes, WithinRel(fixed + vae + decode, 1e-12));
  }

  SECTION("ComfyUI loads what its budget leaves and streams the rest") {
    s.tool = WebUiTool::ComfyUi;
    s.attention = "sdp";  // not in the synthetic backends: no score matrix
    // 3 GiB − fixed 768 MiB − (its inference minimum 512 MiB, above its 81.92 MiB guess, + its reserve 256 MiB) is
    // the weights budget; the UNet's 2e9 B beyond it are streamed. What is then free (768 MiB) holds 1.5 × its guess
    // at both passes (245.76 MiB): cond and uncond together.
    const GenerationEstimate g = estimateGeneration(s, tools, memory, card(3));
    const double loaded = 1536 * kMiB;
    CHECK_THAT(phase(g.estimate, "text_encode").peakBytes, WithinRel(fixed + te, 1e-12));
    CHECK_THAT(phase(g.estimate, "denoise").peakBytes, WithinRel(fixed + loaded + activations, 1e-12));
    CHECK_THAT(g.streamedBytes, WithinRel(unet - loaded, 1e-12));
    CHECK_THAT(phase(g.estimate, "vae_decode").peakBytes, WithinRel(fixed + vae + decode, 1e-12));
    CHECK_FALSE(g.decodeFallsBackToTiled);
  }

  SECTION("ComfyUI's side models: a CLIP vision encoder, an IP-Adapter and a model upscale") {
    s.tool = WebUiTool::ComfyUi;
    s.attention = "sdp";
    s.clipVision = {{"vision", 1e9, false}};
    s.ipadapters = {{"adapter", 1e8, false}};
    // ×4, 9216 B per input px, 6.4e7 B of weights, on the 512² decoded image (the last step).
    s.upscale = {{"esrgan", 6.4e7, false}, 4, 9216, 512, 512, false, 512, 128};
    const double upscaleWeights = 6.4e7, image = 512.0 * 512 * 3 * 4;
    const GenerationEstimate g = estimateGeneration(s, tools, memory, card(8));
    CHECK_THAT(phase(g.estimate, "text_encode").peakBytes, WithinRel(fixed + te + 1e9, 1e-12));
    CHECK_THAT(phase(g.estimate, "denoise").peakBytes, WithinRel(fixed + unet + 1e8 + activations, 1e-12));
    // The whole 512² tile: 512² × 9216 = 2,415,919,104 B beside the model and the fp32 image.
    CHECK_THAT(phase(g.estimate, "upscale").peakBytes, WithinRel(fixed + upscaleWeights + image + 2415919104.0, 1e-12));
    CHECK(g.estimate.phases.back().phase == Phase::Upscale);
    // On 2 GiB, 1,275,031,552 B are free for the tile: 512 px does not fit, 256 px (603,979,776 B) does.
    const GenerationEstimate two = estimateGeneration(s, tools, memory, card(2));
    CHECK_THAT(phase(two.estimate, "upscale").peakBytes, WithinRel(fixed + upscaleWeights + image + 603979776.0, 1e-12));
    // On 1 GiB, 201,289,728 B: the 128 px tile (150,994,944 B).
    CHECK_THAT(phase(estimateGeneration(s, tools, memory, card(1)).estimate, "upscale").peakBytes,
               WithinRel(fixed + upscaleWeights + image + 150994944.0, 1e-12));
    // On 0.9 GiB not even the smallest tile fits: ComfyUI's error stands.
    const Estimate tiny = estimateGeneration(s, tools, memory, card(0.9)).estimate;
    CHECK_THAT(phase(tiny, "upscale").peakBytes, WithinRel(fixed + upscaleWeights + image + 150994944.0, 1e-12));
    CHECK(phase(tiny, "upscale").peakBytes > 0.9 * kGiB);
    // Feeding a second pass, the upscale runs between the passes, before the encode.
    s.upscale.beforeHires = true;
    s.hiresScale = 2;
    s.hiresLatent = false;
    const Estimate hires = estimateGeneration(s, tools, memory, card(8)).estimate;
    std::vector<std::string_view> order;
    for (const auto& p : hires.phases) order.push_back(toString(p.phase));
    CHECK(order == std::vector<std::string_view>{"text_encode", "denoise", "upscale", "vae_encode", "hires_denoise", "vae_decode"});
  }

  SECTION("ComfyUI retries a decode that does not fit in tiles") {
    s.tool = WebUiTool::ComfyUi;
    s.attention = "sdp";
    s.width = s.height = 2048;
    WebUiKnowledge tiles = tools;
    tiles.decoderTileOtherwise = 64;  // latent px
    // 2048² px × 1000 B × 2 B = 8.4 GB is over what 3 GiB leaves: 64 × 8 = 512 px tiles, 512² × 1000 × 2 B.
    const GenerationEstimate g = estimateGeneration(s, tiles, memory, card(3));
    CHECK(g.decodeFallsBackToTiled);
    CHECK_THAT(phase(g.estimate, "vae_decode").peakBytes, WithinRel(fixed + vae + 524288000.0, 1e-12));
  }

  SECTION("ComfyUI keeps its own guess at the work free, and batches cond and uncond only while 1.5 × it fits") {
    s.tool = WebUiTool::ComfyUi;
    s.attention = "sdp";
    WebUiKnowledge noReserve = tools;
    noReserve.comfyInferenceBytes = 0;
    noReserve.comfyReserveBytes = 0;
    GenerationFamily guessing = family;
    guessing.comfyMemoryFactor = 1.0;
    s.family = &guessing;
    // Its guess at one pass: 4096 latent px × 2 B × 0.01 × 1.0 MiB = 85,899,345.92 B, more than the pass's
    // activations (40,960,000 B). On 2.5 GiB it loads 2.5 GiB − fixed − the guess of the UNet and streams the
    // rest; 1.5 × its guess at both passes is over what that leaves: the passes run apart, below the card.
    const double guess = 4096 * 2 * 0.01 * kMiB;
    const GenerationEstimate g = estimateGeneration(s, noReserve, memory, card(2.5));
    const double loaded = 2.5 * 1024 * kMiB - fixed - guess;
    CHECK_THAT(phase(g.estimate, "denoise").peakBytes, WithinRel(fixed + loaded + activations / 2, 1e-12));
    CHECK_THAT(g.streamedBytes, WithinRel(unet - loaded, 1e-12));
    // With room for the whole UNet and 1.5 × the guess at both passes beside it, they run batched.
    const GenerationEstimate roomy = estimateGeneration(s, noReserve, memory, card(8));
    CHECK_THAT(phase(roomy.estimate, "denoise").peakBytes, WithinRel(fixed + unet + activations, 1e-12));
    // A guess below the real work (a quarter: 21,474,836.48 B against 40,960,000) runs out of memory.
    guessing.comfyMemoryFactor = 0.25;
    const Estimate low = estimateGeneration(s, noReserve, memory, card(2.5)).estimate;
    CHECK_THAT(phase(low, "denoise").peakBytes, WithinRel(2.5 * 1024 * kMiB - guess / 4 + activations / 2, 1e-12));
    CHECK(low.verdict == Verdict::Oom);
  }

}

TEST_CASE("ComfyUI's guess at the work, by hand: its formula's paths, references, packed latents, and the budget's range") {
  const Architecture arch = paperUnet();
  GenerationFamily family = paperFamily();
  WebUiKnowledge tools = paperTools();
  tools.attention.push_back({"split", "paper split attention", 0, false, 0, 0, true, false});  // ComfyUI's 0.15 MiB path
  const MemoryModel memory = paperMemory();
  GenerationSetup s = paperSetup(family, arch);
  s.tool = WebUiTool::ComfyUi;
  s.attention = "sdp";  // not in the synthetic backends: PyTorch attention, the dtype path
  const double fixed = 805306368, activations = 81920000;
  const double free = 3 * 1024 * kMiB - fixed;  // 2304 MiB beside the context on a 3 GiB card

  SECTION("without xFormers or PyTorch attention: 0.15 MiB per latent px") {
    s.attention = "split";
    // 4096 × 0.15 × 1.0 = 614.4 MiB, above the 512 MiB minimum: 870.4 MiB kept free with the reserve. 1.5 × its
    // guess at both passes (1843.2 MiB) is over that: one pass at a time.
    const Estimate e = estimateGeneration(s, tools, memory, card(3)).estimate;
    CHECK_THAT(phase(e, "denoise").peakBytes, WithinRel(fixed + free - 870.4 * kMiB + activations / 2, 1e-12));
  }

  SECTION("a factor per unit of width, on a latent of its own downscale") {
    Architecture wide = arch;
    wide.denoiser.hidden = 1000;
    s.arch = &wide;
    family.comfyMemoryFactor = 0;
    family.comfyMemoryFactorPerWidth = 0.04;  // × 1000 = 40
    family.comfyLatentSpatial = 16;           // 32 × 32 = 1024 latent px: 1024 × 0.02 × 40 = 819.2 MiB
    const Estimate e = estimateGeneration(s, tools, memory, card(3)).estimate;
    CHECK_THAT(phase(e, "denoise").peakBytes, WithinRel(fixed + free - (819.2 + 256) * kMiB + activations / 2, 1e-12));
  }

  SECTION("a packed latent counts its channels") {
    family.comfyMemoryFactor = 2.0;
    s.packedLatent = true;  // 4096 × 4 channels × 0.02 × 2.0 = 655.36 MiB
    const Estimate e = estimateGeneration(s, tools, memory, card(3)).estimate;
    CHECK_THAT(phase(e, "denoise").peakBytes, WithinRel(fixed + free - (655.36 + 256) * kMiB + activations / 2, 1e-12));
  }

  SECTION("references count once in the budget, once per batch element and pass in the batching") {
    family.comfyMemoryFactor = 2.0;
    s.referencePixels = 512.0 * 512.0;  // 4096 more latent px
    // Budget: (4096 + 4096) × 0.02 × 2 = 327.68 MiB, under the minimum: 768 MiB kept, 1536 MiB of weights loaded.
    // Batching: 1.5 × (2 × 4096 + 2 × 4096) × 0.04 MiB = 983.04 MiB, over the 768 MiB free (counted once, 737.28
    // would fit): the passes run apart.
    const Estimate e = estimateGeneration(s, tools, memory, card(3)).estimate;
    CHECK_THAT(phase(e, "denoise").peakBytes, WithinRel(fixed + 1536 * kMiB + activations / 2, 1e-12));
    s.referencePixels = 0;  // without them both passes fit together
    CHECK_THAT(phase(estimateGeneration(s, tools, memory, card(3)).estimate, "denoise").peakBytes, WithinRel(fixed + 1536 * kMiB + activations, 1e-12));
  }

  SECTION("weights ComfyUI loads in part and the context beside them carry no uncertainty; Forge's and --novram's do") {
    MemoryModel uncertain = memory;
    uncertain.uncertaintyFixedFraction = 0.3;
    uncertain.uncertaintyWeights = 0.03;
    uncertain.uncertaintyActivations = 0.35;
    const auto reasons = [&](const GenerationSetup& g) {
      const Estimate e = estimateGeneration(g, tools, uncertain, card(3)).estimate;  // kept: phase() refers into it
      std::vector<std::string> out;
      for (const RangeReason& r : phase(e, "denoise").range) out.push_back(r.why);
      return out;
    };
    const auto has = [](const std::vector<std::string>& whys, std::string_view what) {
      return std::any_of(whys.begin(), whys.end(), [&](const std::string& w) { return w.find(what) != std::string::npos; });
    };
    const auto comfy = reasons(s);  // 1536 MiB of the 2e9 B loaded
    CHECK(comfy.size() == 1);
    CHECK(has(comfy, "activation coefficients"));
    GenerationSetup novram = s;
    novram.loadMode = LoadMode::NoVram;  // nothing loaded: the context is what it is
    CHECK(has(reasons(novram), "CUDA context"));
    GenerationSetup forge = s;
    forge.tool = WebUiTool::Forge;  // its budget divides what is free: the sum still moves
    const auto forgeWhys = reasons(forge);
    CHECK(has(forgeWhys, "CUDA context"));
    CHECK(has(forgeWhys, "weight sizes"));
  }
}
