// The host-RAM estimate's arithmetic, checked against configurations whose every component was computed
// by hand (the numbers in the comments), on a synthetic model and round constants so the test does not
// move with the data; then its verdict, its plan and its place in the report on real jobs.
#include <catch2/catch.hpp>

#include <algorithm>

#include "analyze.h"
#include "engine/estimate_core.h"
#include "systems/aitk/host_ram.h"
#include "test_support.h"

using namespace oomlint;

namespace {

Architecture paperModel() {
  Architecture a;
  a.arch = "paper";
  a.label = "Paper DiT";
  a.kind = "image";
  a.denoiser.params = 1e9;
  a.denoiser.blocks = 10;
  a.denoiser.hidden = 1000;
  a.denoiser.patch = 2;
  a.denoiser.largestBlockParams = 1e8;
  a.denoiser.loraParamsPerRank = 1e5;
  a.textEncoders = {{"te", 5e8}};
  a.vae = {"sd", 1e8, 16, 8, 1};
  a.layerOffloading = true;
  a.coarse = false;
  return a;
}

// Whole bytes per parameter and no uncertainty, so every figure below is exact.
MemoryModel paperConstants() {
  MemoryModel m;
  m.weightFormats = {{"bf16", {}, 2, 0}, {"fp32", {}, 4, 0}, {"qfloat8", {}, 1, 0}};
  m.host.processBaselineBytes = 3e9;
  m.host.systemReserveBytes = 1e9;
  m.host.checkpointDtype = "bf16";
  m.host.checkpointShardBytes = 1e9;
  m.host.pinnedRounding = 1.5;
  m.host.workerBytes = 1e8;
  m.host.decodedBytesPerPixel = 12;
  return m;
}

// A bf16 LoRA job, transformer quantized to qfloat8, latents cached to disk at 1024 px, 2 workers.
TrainingSetup paperSetup(const Architecture& arch) {
  TrainingSetup s;
  s.arch = borrowed(arch);
  s.trainDtype = "bf16";
  s.quantize = true;
  s.qtype = "qfloat8";
  s.datasets = {{0, 1024, 1, 1, 0, true}};
  s.numWorkers = 2;
  s.prefetchFactor = 2;
  s.baselineSample = s.periodicSample = false;
  return s;
}

const PhaseEstimate* findPhase(const HostEstimate& e, Phase id) {
  for (const auto& p : e.phases) {
    if (p.phase == id) return &p;
  }
  return nullptr;
}

const PhaseEstimate& phase(const HostEstimate& e, Phase id) {
  const PhaseEstimate* p = findPhase(e, id);
  REQUIRE(p != nullptr);
  return *p;
}

using test::component;

constexpr double kFixed = 3e9 + 1e9;  // the runtime and the rest of the system, in every phase

}  // namespace

TEST_CASE("host RAM, every phase of a hand-computed job") {
  const Architecture arch = paperModel();
  const MemoryModel m = paperConstants();
  const HostEstimate e = hostRamEstimate(paperSetup(arch), m, std::nullopt);

  // load, worst stage: the quantized transformer (1e9 × 1 B) still on the CPU while the text encoder
  // (5e8 × 2 B) and the VAE (1e8 × 2 B) load beside it, mapped from the bf16 checkpoint.
  const PhaseEstimate& load = phase(e, Phase::Load);
  CHECK(load.peakBytes == Approx(kFixed + 1e9 + 1e9 + 2e8));
  CHECK(component(load, "transformer, quantized") == Approx(1e9));
  CHECK(component(load, "text encoder as loaded") == Approx(1e9));
  CHECK(e.committedBytes(load) == Approx(kFixed + 1e9));  // the text encoder's and VAE's pages can be dropped

  // quantize: the full-precision transformer, mapped (1e9 × 2 B), and the quantized copy of one 1 GB
  // shard (5e8 params × 1 B) that stays beside it.
  const PhaseEstimate& quantize = phase(e, Phase::Quantize);
  CHECK(component(quantize, "transformer as loaded") == Approx(2e9));
  CHECK(component(quantize, "quantized copy") == Approx(5e8));
  CHECK(quantize.peakBytes == Approx(kFixed + 2.5e9));
  CHECK(e.committedBytes(quantize) == Approx(kFixed + 5e8));

  // latent_cache: the transformer (1e9) and the bf16 text encoder (1e9) parked while the VAE encodes.
  const PhaseEstimate& latents = phase(e, Phase::LatentCache);
  CHECK(component(latents, "transformer parked in RAM") == Approx(1e9));
  CHECK(component(latents, "text encoder in RAM") == Approx(1e9));
  CHECK(latents.peakBytes == Approx(kFixed + 2e9));
  CHECK(findPhase(e, Phase::TeCache) == nullptr);  // no caption caching

  // train_step: the VAE waits on the CPU (2e8) and 2 workers each hold 1e8 plus 2 prefetched latents of
  // 16 × 128 × 128 × 2 B = 524,288 B.
  const PhaseEstimate& train = phase(e, Phase::TrainStep);
  CHECK(component(train, "VAE parked in RAM") == Approx(2e8));
  CHECK(component(train, "data-loader workers") == Approx(2 * (1e8 + 2 * 524288.0)));
  CHECK(train.peakBytes == Approx(kFixed + 2e8 + 2 * (1e8 + 2 * 524288.0)));
}

TEST_CASE("host RAM, the peak and the verdict against the machine's RAM") {
  const Architecture arch = paperModel();
  const MemoryModel m = paperConstants();
  const TrainingSetup s = paperSetup(arch);
  // Peak: quantize 6.5e9 (2e9 of it mapped); the most undroppable memory: latent_cache, 6.0e9.
  const HostEstimate unknown = hostRamEstimate(s, m, std::nullopt);
  CHECK(unknown.peak().phase == Phase::Quantize);
  CHECK(unknown.peak().peakBytes == Approx(6.5e9));
  CHECK_FALSE(unknown.verdict.has_value());

  CHECK(*hostRamEstimate(s, m, 7'000'000'000).verdict == Verdict::Fits);
  // 6.2e9: everything the kernel cannot drop fits; the mapped pages push quantize past the RAM.
  const HostEstimate mapped = hostRamEstimate(s, m, 6'200'000'000);
  CHECK(*mapped.verdict == Verdict::Borderline);
  // 5.9e9: latent_cache's 6.0e9 of parked modules cannot fit.
  const HostEstimate oom = hostRamEstimate(s, m, 5'900'000'000);
  CHECK(*oom.verdict == Verdict::Oom);
  CHECK(oom.deciding().phase == Phase::LatentCache);
  // A log's host-RAM kill is an oom whatever the figures, with or without the RAM.
  CHECK(*hostRamEstimate(s, m, std::nullopt, true).verdict == Verdict::Oom);
  CHECK(*hostRamEstimate(s, m, 100'000'000'000, true).verdict == Verdict::Oom);
}

TEST_CASE("host RAM, uncertainty within reach of the RAM is borderline") {
  const Architecture arch = paperModel();
  MemoryModel m = paperConstants();
  m.uncertaintyFixedFraction = 0.25;  // ± 1e9 on the 4e9 fixed part
  const TrainingSetup s = paperSetup(arch);
  // latent_cache: 6.0e9 ± 1.0e9 undroppable on a 6.6e9 machine; quantize's 6.5e9 total fits too.
  const HostEstimate e = hostRamEstimate(s, m, 6'600'000'000);
  CHECK(*e.verdict == Verdict::Borderline);
  CHECK(e.deciding().phase == Phase::LatentCache);
}

TEST_CASE("host RAM, layer offloading pins its share, rounded up") {
  const Architecture arch = paperModel();
  const MemoryModel m = paperConstants();
  TrainingSetup s = paperSetup(arch);
  s.layerOffloading = true;
  s.offloadTransformer = 0.5;
  s.offloadTextEncoder = 1.0;
  const HostEstimate e = hostRamEstimate(s, m, std::nullopt);
  // 1e9 B of quantized transformer × 50 % × 1.5, and the 1e9 B bf16 text encoder × 100 % × 1.5.
  const PhaseEstimate& train = phase(e, Phase::TrainStep);
  CHECK(component(train, "offloaded transformer weights") == Approx(7.5e8));
  CHECK(component(train, "offloaded text-encoder weights") == Approx(1.5e9));
  // Parked for latent caching: the half that is not pinned already (5e8), the encoder all pinned.
  const PhaseEstimate& latents = phase(e, Phase::LatentCache);
  CHECK(component(latents, "transformer parked in RAM") == Approx(5e8));
  CHECK(component(latents, "text encoder in RAM") == 0);
  // Cached captions free the text encoder: nothing of it stays pinned.
  s.cacheTextEmbeddings = true;
  CHECK(component(phase(hostRamEstimate(s, m, std::nullopt), Phase::TrainStep), "offloaded text-encoder weights") == 0);
}

TEST_CASE("host RAM, how each loader leaves the transformer") {
  Architecture arch = paperModel();
  const MemoryModel m = paperConstants();
  TrainingSetup s = paperSetup(arch);

  SECTION("a loader that quantizes on the GPU moves the transformer there before the text encoder loads") {
    arch.denoiser.quantizeWholeOnGpu = true;
    const HostEstimate e = hostRamEstimate(s, m, std::nullopt);
    CHECK(findPhase(e, Phase::Quantize) == nullptr);
    // Stage 1, the transformer as loaded (2e9), beats stage 2, the text encoder and VAE (1.2e9).
    CHECK(phase(e, Phase::Load).peakBytes == Approx(kFixed + 2e9));
    s.lowVram = true;  // low_vram quantizes on the CPU: the phase comes back
    arch.lowVramKinds = {"quantize_on_cpu"};
    CHECK(findPhase(hostRamEstimate(s, m, std::nullopt), Phase::Quantize) != nullptr);
  }
  SECTION("another dtype converts the checkpoint: anonymous memory, freed block by block as quantized") {
    s.trainDtype = "fp32";
    const HostEstimate e = hostRamEstimate(s, m, std::nullopt);
    const PhaseEstimate& quantize = phase(e, Phase::Quantize);
    CHECK(component(quantize, "transformer as loaded") == Approx(4e9));  // 1e9 × 4 B
    CHECK(component(quantize, "quantized copy") == Approx(1e8));         // one 1e8-param block × 1 B
    CHECK(e.committedBytes(quantize) == quantize.peakBytes);
  }
  SECTION("a single-file checkpoint stays mapped as a whole while its quantized copy is built") {
    s.singleFileCheckpoint = true;
    CHECK(component(phase(hostRamEstimate(s, m, std::nullopt), Phase::Quantize), "quantized copy") == Approx(1e9));
  }
  SECTION("a loader that builds the module in fp32 holds it beside the mapped state dict") {
    MemoryModel fp32Init = m;
    fp32Init.host.fp32ModuleInit = {"paper"};
    const HostEstimate e = hostRamEstimate(s, fp32Init, std::nullopt);
    const PhaseEstimate& load = phase(e, Phase::Load);
    CHECK(component(load, "transformer module (fp32)") == Approx(4e9));
    CHECK(component(load, "checkpoint state dict") == Approx(2e9));
    CHECK(load.peakBytes == Approx(kFixed + 6e9));
  }
}

TEST_CASE("host RAM, modules kept on the CPU while training") {
  Architecture arch = paperModel();
  const MemoryModel m = paperConstants();
  TrainingSetup s = paperSetup(arch);

  SECTION("unload_text_encoder without caching moves the text encoder to the CPU") {
    s.unloadTextEncoder = true;
    CHECK(component(phase(hostRamEstimate(s, m, std::nullopt), Phase::TrainStep), "text encoder in RAM") == Approx(1e9));
  }
  SECTION("Wan 2.2's low_vram keeps the idle expert on the CPU") {
    arch.denoiser.experts = 2;
    arch.lowVramKinds = {"swap_experts"};
    s.lowVram = true;
    // Half of the 1e9 B quantized transformer.
    CHECK(component(phase(hostRamEstimate(s, m, std::nullopt), Phase::TrainStep), "idle expert in RAM") == Approx(5e8));
  }
  SECTION("low_vram's aggressive sampling parks the transformer") {
    arch.lowVramKinds = {"park_modules", "decodes_alone"};
    s.lowVram = true;
    s.periodicSample = true;
    CHECK(component(phase(hostRamEstimate(s, m, std::nullopt), Phase::Sample), "transformer parked in RAM") == Approx(1e9));
  }
  SECTION("a class that parks only at load samples with the transformer on the GPU") {
    arch.lowVramKinds = {"park_modules"};
    s.lowVram = true;
    s.periodicSample = true;
    CHECK(component(phase(hostRamEstimate(s, m, std::nullopt), Phase::Sample), "transformer parked in RAM") == 0);
  }
  SECTION("no workers: the data loader runs in the trainer") {
    s.numWorkers = 0;
    CHECK(component(phase(hostRamEstimate(s, m, std::nullopt), Phase::TrainStep), "data-loader workers") == 0);
  }
  SECTION("latents kept in RAM are named per image, not counted (the dataset's size is not in the config)") {
    s.datasets.front().latentsInMemory = true;
    const HostEstimate e = hostRamEstimate(s, m, std::nullopt);
    REQUIRE(e.notes.size() == 1);
    CHECK(e.notes.front().find("0.5 MiB per image") != std::string::npos);
  }
}

// ---- The estimate in the report, on real jobs (the embedded knowledge) --------------------------------

namespace {

const char* kWanOffloadJob = R"(job: extension
config:
  name: host_plan
  process:
    - type: sd_trainer
      network: {type: lora, linear: 32, linear_alpha: 32}
      datasets:
        - folder_path: /data/images
          cache_latents_to_disk: true
          resolution: [512]
          num_workers: 4
      train:
        batch_size: 1
        gradient_checkpointing: true
        optimizer: adamw8bit
        dtype: bf16
        cache_text_embeddings: true
        disable_sampling: true
      model:
        name_or_path: Wan-AI/Wan2.1-T2V-14B-Diffusers
        arch: wan21:14b
        quantize: true
        qtype: float8
        layer_offloading: true
        layer_offloading_transformer_percent: 1.0
        layer_offloading_text_encoder_percent: 0.0
)";

AnalyzeOptions machine(std::optional<double> ramGib, double vramGib) {
  AnalyzeOptions o;
  o.ramGib = ramGib;
  o.vramGib = vramGib;
  return o;
}

bool hasCode(const FileReport& report, RuleId code) {
  return std::any_of(report.diagnostics.begin(), report.diagnostics.end(), [&](const Diagnostic& d) { return d.code == code; });
}

}  // namespace

TEST_CASE("without the RAM the host estimate is there, unknown, and nothing is reported") {
  const FileReport report = analyzeInput(Input{"wan.yaml", kWanOffloadJob}, machine(std::nullopt, 24));
  REQUIRE(report.estimate);
  REQUIRE(report.estimate->host);
  CHECK_FALSE(report.estimate->host->verdict.has_value());
  CHECK(report.hostPlan.empty());
  CHECK_FALSE(hasCode(report, RuleId::OL504));
}

TEST_CASE("the host-RAM plan offloads fewer layers only as far as the card allows") {
  // On a 48 GiB card the whole transformer fits: no layer needs offloading.
  const FileReport big = analyzeInput(Input{"wan.yaml", kWanOffloadJob}, machine(24, 48));
  REQUIRE(big.estimate->host->verdict);
  CHECK(*big.estimate->host->verdict == Verdict::Oom);
  CHECK(hasCode(big, RuleId::OL504));
  REQUIRE_FALSE(big.hostPlan.empty());
  CHECK(big.hostPlan.front().fix.path.lastKey() == "layer_offloading_transformer_percent");
  CHECK(big.hostPlan.front().fix.toJson == "0");
  // On a 12 GiB card the transformer cannot come back: the plan goes on to the workers instead.
  const FileReport small = analyzeInput(Input{"wan.yaml", kWanOffloadJob}, machine(24, 12));
  for (const auto& step : small.hostPlan) CHECK(step.fix.path.lastKey() != "layer_offloading_transformer_percent");
  // The VRAM rollback plan is the same with or without the RAM: the host levers do not enter it.
  const FileReport noRam = analyzeInput(Input{"wan.yaml", kWanOffloadJob}, machine(std::nullopt, 12));
  REQUIRE(small.plan.size() == noRam.plan.size());
  for (std::size_t i = 0; i < small.plan.size(); ++i) CHECK(small.plan[i].fix.path == noRam.plan[i].fix.path);
}

TEST_CASE("fix writes the host plan's needed steps") {
  const FixResult fixed = fixConfig(Input{"wan.yaml", kWanOffloadJob}, machine(24, 48));
  CHECK(fixed.text.find("layer_offloading_transformer_percent: 0\n") != std::string::npos);
}

TEST_CASE("a log's host-RAM kill gives the host verdict without the RAM") {
  AnalyzeOptions options;
  options.vramGib = 24;
  const std::string log = test::readFile(test::sourceDir() / "tests/fixtures/diagnosis/OL603-kernel-oom-killer.log");
  const Report report = analyzeWithLog(Input{"wan.yaml", kWanOffloadJob}, Input{"run.log", log}, options);
  REQUIRE(report.files.size() == 2);
  const FileReport& config = report.files[1];
  REQUIRE(config.estimate->host);
  CHECK(config.estimate->host->logKilled);
  CHECK(*config.estimate->host->verdict == Verdict::Oom);
  CHECK(hasCode(config, RuleId::OL504));
}

TEST_CASE("a log's host-RAM kill names the levers of the trainer that wrote it") {
  auto advice = [](const char* fixture) {
    const std::string log = test::readFile(test::sourceDir() / "tests/fixtures/logs" / fixture);
    const FileReport report = analyzeInput(Input{fixture, log}, AnalyzeOptions{});
    // A kill the log shows (OL603) or one it suggests (OL608, a process gone without a message).
    const auto d = std::find_if(report.diagnostics.begin(), report.diagnostics.end(),
                                [](const Diagnostic& x) { return x.code == RuleId::OL603 || x.code == RuleId::OL608; });
    REQUIRE(d != report.diagnostics.end());
    return d->message;
  };
  // AI Toolkit's own log (its install path): its levers alone.
  const std::string aiToolkit = advice("114_ai-toolkit_flux2-killed-quantizing-te.log");
  CHECK(aiToolkit.find("model.layer_offloading") != std::string::npos);
  CHECK(aiToolkit.find("--max_data_loader_n_workers") == std::string::npos);
  // sd-scripts' latent caching killed: its data loader, latent cache and --lowram, not AI Toolkit's settings.
  const std::string kohya = advice("113_sd-scripts_oom-killer-cache-latents.log");
  CHECK(kohya.find("--max_data_loader_n_workers") != std::string::npos);
  CHECK(kohya.find("--cache_latents_to_disk") != std::string::npos);
  CHECK(kohya.find("--lowram") != std::string::npos);
  CHECK(kohya.find("layer_offloading") == std::string::npos);
  // A kill in a log whose trainer shows no sign of itself (a diffusers script): every trainer's levers, each named.
  const std::string unnamed = advice("136_diffusers_flux-killed-after-bar.log");
  CHECK(unnamed.find("AI Toolkit: lower model.layer_offloading") != std::string::npos);
  CHECK(unnamed.find("--max_data_loader_n_workers") != std::string::npos);
}
