// The WebUI input kind: launch lines and parameters blocks read with exact positions, the generation
// estimate against hand-computed figures, the seed cases, the fix order and `oomlint fix`.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

#include "base/knowledge/knowledge.h"
#include "test_support.h"
#include "systems/webui/setup.h"
#include "systems/webui/generation_estimate.h"
#include "systems/webui/webui_input.h"

using namespace oomlint;
using Catch::Matchers::WithinRel;

namespace {


FileReport checkOn(const std::string& text, const char* gpu) {
  AnalyzeOptions options;
  options.gpu = gpu;
  return analyzeInput(Input{"webui", text}, options);
}

GenerationSetup setupOf(const WebUiInput& in) {
  return setupGeneration(in, *knowledge().webui, knowledge().architectures);
}

GenerationEstimate estimateOf(const GenerationSetup& setup, const GpuTarget& gpu) {
  return estimateGeneration(setup, *knowledge().webui, knowledge().memory, gpu);
}

using test::phase;

}  // namespace

TEST_CASE("COMMANDLINE_ARGS is found in webui-user.bat and webui-user.sh, each flag at its column") {
  const WebUiInput bat = readWebUiInput("@echo off\r\nset COMMANDLINE_ARGS=--medvram --xformers\r\ncall webui.bat\r\n");
  REQUIRE(bat.flags.size() == 2);
  CHECK(bat.flags[0].name == "--medvram");
  CHECK(bat.flags[0].range.start.line == 2);
  CHECK(bat.flags[0].range.start.column == 22);
  CHECK(bat.flags[1].range.start.column == 32);
  CHECK(bat.flagInsertOffset == std::string("@echo off\r\nset COMMANDLINE_ARGS=--medvram --xformers").size());

  const WebUiInput sh = readWebUiInput("#export COMMANDLINE_ARGS=\"--lowvram\"\nexport COMMANDLINE_ARGS=\"--medvram --opt-split-attention\"\n");
  REQUIRE(sh.flags.size() == 2);
  CHECK(sh.flags[0].name == "--medvram");  // the commented line is not an assignment
  CHECK(sh.flags[1].name == "--opt-split-attention");
  CHECK(sh.flags[0].range.start.column == 26);

  const WebUiInput comfy = readWebUiInput(".\\python_embeded\\python.exe -s ComfyUI\\main.py --lowvram --reserve-vram 1.5\n");
  REQUIRE(comfy.commandTool.has_value());
  CHECK(*comfy.commandTool == WebUiTool::ComfyUi);
  REQUIRE(comfy.flags.size() == 2);  // python's own -s comes before the script: not ComfyUI's
  CHECK(comfy.flags[1].name == "--reserve-vram");
  CHECK(comfy.flags[1].value == "1.5");
}

TEST_CASE("the parameters block is split into fields, quoted ControlNet units kept whole") {
  const std::string text =
      "a cat\nNegative prompt: dog\nSteps: 20, Sampler: DPM++ 2M, Size: 512x768, Model: v1-5-pruned-emaonly, "
      "ControlNet 0: \"Module: canny, Model: control_v11p_sd15_canny [d14c016b], Low Vram: True\", Version: v1.10.1\n";
  const WebUiInput in = readWebUiInput(text);
  const InfoField* size = findInfo(in, "Size");
  REQUIRE(size != nullptr);
  CHECK(size->value == "512x768");
  CHECK(size->range.start.line == 3);
  CHECK(text.substr(size->range.start.offset, size->range.end.offset - size->range.start.offset) == "512x768");
  const InfoField* cn = findInfo(in, "ControlNet 0");
  REQUIRE(cn != nullptr);
  CHECK(cn->value.find("Low Vram: True") != std::string::npos);
  CHECK(findInfo(in, "Version")->value == "v1.10.1");

  const auto setup = setupOf(in);
  REQUIRE(setup.estimable());
  CHECK(setup.family->id == "sd15");
  CHECK(setup.width == 512);
  CHECK(setup.height == 768);
  REQUIRE(setup.controlnets.size() == 1);
  CHECK(setup.controlnets[0].lowVram);
  CHECK(setup.controlnets[0].model->id == "sd15-controlnet");
}

TEST_CASE("the setup derives each setting once and keeps the text that set it") {
  const std::string text = "generation:\n  tool: a1111\n  model: sdxl\n  width: 70000\n"
                           "  args: --medvram --lowvram --xformers --opt-split-attention --no-half-vae --bogus --always-low-vram\n";
  const WebUiInput in = readWebUiInput(text);
  const GenerationSetup s = setupOf(in);
  REQUIRE(s.estimable());
  auto at = [&](const Range& r) { return text.substr(r.start.offset, r.end.offset - r.start.offset); };
  CHECK(at(s.modelRange) == "sdxl");
  // The flags in order, as A1111 takes them.
  REQUIRE(s.flags.size() == 7);
  CHECK(s.flags[0].choice == FlagChoice::Offload);
  CHECK(s.flags[2].choice == FlagChoice::Attention);
  CHECK(s.flags[3].choice == FlagChoice::Attention);
  CHECK(s.flags[5].standing == FlagStanding::Unknown);
  CHECK(s.flags[6].standing == FlagStanding::OtherTool);  // Forge's
  CHECK(s.flags[6].choice == FlagChoice::Other);          // not applied
  // The values, each with its source.
  CHECK(s.offload == Offload::Lowvram);
  REQUIRE(s.offloadFlag != nullptr);
  CHECK(s.offloadFlag->name == "--lowvram");
  CHECK(s.attention == "doggettx");  // the last attention flag
  CHECK(s.fp32Vae);
  CHECK(s.vaeFp32Fallback);  // SDXL's VAE in A1111 without the fp16 fix
  REQUIRE(s.fp32VaeFlag != nullptr);
  CHECK(at(s.fp32VaeFlag->range) == "--no-half-vae");
  CHECK(s.loadMode == LoadMode::Normal);
  // The unreadable width keeps the default and says why.
  CHECK(s.width == 1024);
  REQUIRE(s.problems.size() == 1);
  CHECK(s.problems[0].path.toString() == "generation.width");
  CHECK(at(s.problems[0].range) == "70000");
  // Without a known model there is nothing to estimate, and the flags are not read.
  const WebUiInput unknownModel = readWebUiInput("generation:\n  model: sdxxl\n  args: --bogus\n");
  const GenerationSetup unknown = setupOf(unknownModel);  // it points into the input, which outlives it
  CHECK_FALSE(unknown.estimable());
  CHECK(unknown.flags.empty());
  REQUIRE(unknown.problems.size() == 1);
  CHECK(unknown.problems[0].message.find("did you mean `sdxl`?") != std::string::npos);
}

TEST_CASE("SD1.5 at 512² in A1111 with xFormers: every component computed by hand") {
  const WebUiInput in = readWebUiInput("generation:\n  tool: a1111\n  model: sd15\n  args: --xformers\n");
  const auto setup = setupOf(in);
  REQUIRE(setup.estimable());
  const GenerationEstimate g = estimateOf(setup, GpuTarget{"12 GiB", static_cast<std::uint64_t>(12 * kGiB)});
  const PhaseEstimate& denoise = phase(g.estimate, "denoise");
  // fixed 0.5 + 0.3 GiB; UNet 859.5 M × 2; CLIP-L 123.06 M × 2; VAE 83.65 M × 2;
  // activations 64 × 64 latent px × 2 (cond/uncond) × 16,392 B (the census's plain SD 1.5 UNet,
  // tests/census/unet-inference.json); xFormers: no score matrix.
  const double fixed = 0.5 * kGiB + 322122547.0;
  const double weights = (8.595e8 + 1.2306e8 + 8.365e7) * 2;
  const double act = 4096.0 * 2 * 16392;
  CHECK_THAT(denoise.peakBytes, WithinRel(fixed + weights + act, 1e-9));
  // The decode: 512 × 512 px × 768 B × 2 B, plus the same weights and fixed share. 768 (was a fitted
  // 1260): A1111's decoder at full resolution keeps its 256-channel input, the GroupNorm output and the
  // SiLU output live together (rules/webui.yaml vae_decoder), 3 × 256 maps per output pixel.
  const PhaseEstimate& decode = phase(g.estimate, "vae_decode");
  CHECK_THAT(decode.peakBytes, WithinRel(fixed + weights + 512.0 * 512 * 768 * 2, 1e-9));
}

TEST_CASE("Doggettx slices its score matrix to the free memory; no optimisation keeps 3.5 of them") {
  auto denoiseWith = [](const std::string& args, double vramGiB) {
    const WebUiInput in = readWebUiInput("generation:\n  tool: a1111\n  model: sd15\n  args: " + args + "\n");
    return estimateOf(setupOf(in), GpuTarget{"card", static_cast<std::uint64_t>(vramGiB * kGiB)});
  };
  // One fp16 score matrix at 512²: 2 elements × 8 heads × 4096² tokens × 2 B = 0.5 GiB.
  const double score = 2.0 * 8 * 4096.0 * 4096.0 * 2;
  const double base = phase(denoiseWith("--xformers", 24).estimate, "denoise").peakBytes;
  CHECK_THAT(phase(denoiseWith("--disable-opt-split-attention", 24).estimate, "denoise").peakBytes,
             WithinRel(base + 3.5 * score, 1e-9));
  CHECK_THAT(phase(denoiseWith("--opt-split-attention", 24).estimate, "denoise").peakBytes, WithinRel(base + 1.7 * score, 1e-9));
  // On a 3 GiB card Doggettx cannot take 3 × 0.5 GiB at once: it slices, and the peak stays under the card.
  const GenerationEstimate small = denoiseWith("--opt-split-attention", 3.0);
  CHECK(phase(small.estimate, "denoise").peakBytes < base + 1.7 * score);
  CHECK_FALSE(small.attentionTooLarge);
}

TEST_CASE("the seed: SD1.5 512² + one ControlNet on a 4 GB card") {
  const std::string base = "generation:\n  tool: a1111\n  model: sd15\n  width: 512\n  height: 512\n";
  const std::string unit = "  controlnet:\n    - model: control_v11p_sd15_canny\n      low_vram: ";
  // Without flags: no fit, and the needed change is --medvram (or --lowvram). Borderline rather than out of
  // memory since the decode comes from the decoder's structure (0.375 GiB of live maps at 512², was a
  // fitted 0.62): 3.8 GiB expected of the card's 3.9, the upper part of the range over it.
  const FileReport plain = checkOn(base + unit + "false\n", "GTX 1050 Ti");
  REQUIRE(plain.estimate);
  CHECK(plain.estimate->verdict == Verdict::Borderline);
  bool medvramNeeded = false;
  for (const auto& step : plain.plan) {
    if (step.needed && (step.fix.toJson.find("--medvram") != std::string::npos || step.fix.toJson.find("--lowvram") != std::string::npos)) {
      medvramNeeded = true;
    }
  }
  CHECK(medvramNeeded);
  // With them, and ControlNet's Low VRAM: fits.
  for (const char* flags : {"--medvram", "--lowvram", "--medvram --xformers", "--lowvram --xformers"}) {
    INFO(flags);
    const FileReport fixed = checkOn(base + "  args: " + flags + "\n" + unit + "true\n", "GTX 1050 Ti");
    REQUIRE(fixed.estimate);
    CHECK(fixed.estimate->verdict == Verdict::Fits);
  }
  // --lowvram with ControlNet Low VRAM alternates them: the denoise peak holds the larger, not both.
  const FileReport low = checkOn(base + "  args: --lowvram --xformers\n" + unit + "true\n", "GTX 1050 Ti");
  const FileReport lowResident = checkOn(base + "  args: --lowvram --xformers\n" + unit + "false\n", "GTX 1050 Ti");
  CHECK(phase(*low.estimate, "denoise").peakBytes < phase(*lowResident.estimate, "denoise").peakBytes);
}

TEST_CASE("SDXL at 1024² on 4 GB without flags is out of memory; the plan ends in a fit") {
  const FileReport r = checkOn("generation:\n  tool: a1111\n  model: sdxl\n  width: 1024\n  height: 1024\n", "GTX 1050 Ti");
  REQUIRE(r.estimate);
  CHECK(r.estimate->verdict == Verdict::Oom);
  CHECK(test::hasCode(r, "OL501"));
  REQUIRE_FALSE(r.plan.empty());
  CHECK(r.plan.back().fitsAfter);
  // The cheapest levers come first: the fp16-fix VAE and medvram before lowvram.
  std::vector<std::string> order;
  for (const auto& step : r.plan) order.push_back(step.fix.path.toString() + "=" + step.fix.toJson);
  const auto at = [&](std::string_view what) {
    for (std::size_t i = 0; i < order.size(); ++i) {
      if (order[i].find(what) != std::string::npos) return static_cast<long>(i);
    }
    return -1L;
  };
  REQUIRE(at("fp16_fix") >= 0);
  REQUIRE(at("--medvram-sdxl") >= 0);
  CHECK(at("fp16_fix") < at("--lowvram"));
  CHECK(at("--medvram-sdxl") < at("--lowvram"));
}

TEST_CASE("Forge ignores A1111's memory flags and streams what does not fit") {
  const FileReport r = checkOn("generation:\n  tool: forge\n  model: sdxl\n  args: --medvram\n", "GTX 1050 Ti");
  CHECK(test::hasCode(r, "OL702"));
  REQUIRE(r.estimate);
  CHECK(r.estimate->verdict != Verdict::Oom);  // partial loading: slow, not an OOM
  CHECK(test::hasCode(r, "OL708"));
}

TEST_CASE("oomlint fix writes the needed flag into webui-user.bat and nothing else") {
  const std::string bat =
      "@echo off\r\nset COMMANDLINE_ARGS=--xformers\r\ncall webui.bat\r\n"
      "Steps: 20, Size: 512x512, Model: v1-5-pruned-emaonly, ControlNet 0: \"Module: canny, Model: control_v11p_sd15_canny, Low Vram: False\"\r\n";
  AnalyzeOptions options;
  options.gpu = "GTX 1050 Ti";
  const FixResult fixed = fixConfig(Input{"webui-user.bat", bat}, options);
  REQUIRE_FALSE(fixed.applied.empty());
  CHECK(fixed.text.find("set COMMANDLINE_ARGS=--xformers --medvram\r\n") != std::string::npos);
  std::string expected = bat;
  expected.insert(bat.find("\r\ncall"), " --medvram");
  CHECK(fixed.text == expected);
  CHECK(checkOn(fixed.text, "GTX 1050 Ti").estimate->verdict == Verdict::Fits);
}

TEST_CASE("configs and logs are not taken for WebUI inputs") {
  CHECK_FALSE(looksLikeWebUiInput("---\njob: extension\nconfig:\n  name: x\n"));
  CHECK_FALSE(looksLikeWebUiInput("Traceback (most recent call last):\n  File \"run.py\", line 1\n"));
  CHECK(looksLikeWebUiInput("--medvram --xformers\n"));
  CHECK(looksLikeWebUiInput("python launch.py --lowvram\n"));
  CHECK(looksLikeWebUiInput("Steps: 20, Sampler: Euler a, Size: 512x512\n"));
}

TEST_CASE("WebUI logs name their tool and get that tool's levers", "[shared]") {
  OOMLINT_REQUIRE_SHARED();
  const auto corpus = test::sharedDir() / "corpus/logs";
  auto advice = [&](const char* file) {
    const FileReport r = analyzeInput(Input{file, test::readFile(corpus / file)});
    REQUIRE(r.log);
    for (const auto& d : r.diagnostics) {
      if (d.code == "OL601") return std::make_pair(r.log->tool, d.message);
    }
    return std::make_pair(r.log->tool, std::string());
  };
  const auto [a1111, decode] = advice("014_a1111_sd15-6gb-decode.log");
  CHECK(a1111 == "a1111");
  CHECK(decode.find("Tiled VAE") != std::string::npos);
  const auto [mac, mps] = advice("042_a1111_mac-mps-txt2img.log");
  CHECK(mps.find("--opt-sub-quad-attention") != std::string::npos);
  CHECK(mps.find("--xformers") == std::string::npos);  // CUDA-only
  const auto [forge, forgeAdvice] = advice("045_forge_flux-8bit-lora-3090.log");
  CHECK(forge == "forge");
  CHECK(forgeAdvice.find("GPU Weights") != std::string::npos);
  CHECK(forgeAdvice.find("--medvram") == std::string::npos);  // Forge ignores it
  const auto [comfy, comfyAdvice] = advice("008_comfyui_zimage-turbo-5060ti.log");
  CHECK(comfy == "comfyui");
  CHECK(comfyAdvice.find("--lowvram") != std::string::npos);
  // A trainer's log names no UI and keeps the trainer's advice.
  const auto [trainer, trainerAdvice] = advice("018_ai-toolkit_flux-dev-4090.log");
  CHECK(trainer.empty());
}

TEST_CASE("an A1111 log's launch flags are not suggested again") {
  const std::string log =
      "Launching Web UI with arguments: --xformers --medvram\n"
      "Applying attention optimization: xformers... done.\n"
      "Traceback (most recent call last):\n"
      "  File \"/sd/modules/processing.py\", line 732, in process_images\n"
      "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB (GPU 0; 4.00 GiB total capacity; "
      "2.90 GiB already allocated; 0 bytes free; 3.10 GiB reserved in total by PyTorch)\n";
  const FileReport r = analyzeInput(Input{"a1111.log", log});
  REQUIRE(r.log);
  CHECK(r.log->tool == "a1111");
  CHECK(r.log->launchArgs == "--xformers --medvram");
  std::string message;
  for (const auto& d : r.diagnostics) {
    if (d.code == "OL601") message = d.message;
  }
  CHECK(message.find("add --xformers") == std::string::npos);
  CHECK(message.find("--lowvram") != std::string::npos);
}

// Every flag with a memory effect in rules/webui.yaml moves the estimate the way its source says; a flag
// added to the data with an effect this table does not know fails here.
TEST_CASE("each flag's effect on the estimate") {
  enum class Expect { Lower, Higher, Same };
  struct Case {
    const char* tool;
    const char* model;
    const char* baseline;  // flags of the comparison run
    const char* phase;
    Expect expect;
    const char* gpu = "RTX 3060 12GB";
    int side = 0;  // the image side when the default one does not show the effect
  };
  const std::multimap<std::string, Case> byEffect = {
      {"medvram", {"a1111", "sd15", "--xformers", "denoise", Expect::Lower}},
      {"medvram_sdxl", {"a1111", "sdxl", "--xformers", "denoise", Expect::Lower}},
      {"lowvram", {"a1111", "sdxl", "--xformers --medvram-sdxl", "denoise", Expect::Lower}},
      {"attention:xformers", {"a1111", "sd15", "--opt-split-attention", "denoise", Expect::Lower}},
      {"attention:sdp", {"a1111", "sd15", "--opt-split-attention", "denoise", Expect::Lower}},
      {"attention:sdp_no_mem", {"a1111", "sd15", "--opt-split-attention", "denoise", Expect::Lower}},
      {"attention:sub_quadratic", {"a1111", "sd15", "--opt-split-attention", "denoise", Expect::Lower}},
      // V1 and InvokeAI leave the VAE's attention unoptimised: its two token² matrices outgrow the
      // decoder's convolutions (768 B per output pixel per element byte) only above ≈1250² px.
      {"attention:v1", {"a1111", "sd15", "--xformers", "vae_decode", Expect::Higher, "RTX 3060 12GB", 2048}},
      {"attention:doggettx", {"a1111", "sd15", "--xformers", "denoise", Expect::Higher}},
      {"attention:invokeai", {"a1111", "sd15", "--xformers", "vae_decode", Expect::Higher, "RTX 3060 12GB", 2048}},
      {"attention:none", {"a1111", "sd15", "--opt-split-attention", "denoise", Expect::Higher}},
      {"no_half", {"a1111", "sd15", "--xformers", "denoise", Expect::Higher}},
      {"precision_full", {"a1111", "sd15", "--xformers", "denoise", Expect::Higher}},
      {"all_fp32", {"forge", "sd15", "", "denoise", Expect::Higher}},
      {"no_half_vae", {"a1111", "sd15", "--xformers", "vae_decode", Expect::Higher}},
      {"vae_fp32", {"comfyui", "sd15", "", "vae_decode", Expect::Higher}},
      {"vae_fp16", {"comfyui", "sd15", "--fp32-vae", "vae_decode", Expect::Lower}},
      {"vae_bf16", {"comfyui", "sd15", "--fp32-vae", "vae_decode", Expect::Lower}},
      {"upcast", {"a1111", "sd15", "--xformers", "denoise", Expect::Same}},
      {"forge_low_vram", {"forge", "flux", "", "denoise", Expect::Same, "RTX 3060 8GB"}},  // already partial on 8 GB
      {"forge_no_vram", {"forge", "flux", "", "denoise", Expect::Lower, "RTX 3060 8GB"}},
      {"comfy_novram", {"comfyui", "flux", "", "denoise", Expect::Lower, "RTX 3060 8GB"}},
      {"comfy_highvram", {"comfyui", "flux", "", "denoise", Expect::Higher, "RTX 3060 8GB"}},
      {"comfy_gpu_only", {"comfyui", "flux", "", "denoise", Expect::Higher, "RTX 3060 8GB"}},
      // Dynamic VRAM holds no weights for the work, only the layers in flight: under the partial load's peak.
      {"comfy_dynamic_vram", {"comfyui", "flux", "", "denoise", Expect::Lower, "RTX 3060 8GB"}},
      // The older manager is what a profile, which names no ComfyUI release, is estimated under anyway (a workflow
      // saved by v0.16.0 or later is not: tests/comfyui_test.cpp).
      {"comfy_disable_dynamic_vram", {"comfyui", "flux", "", "denoise", Expect::Same, "RTX 3060 8GB"}},
      {"comfy_reserve", {"comfyui", "flux", "", "denoise", Expect::Lower, "RTX 3060 8GB"}},
      {"forge_offload", {"forge", "sdxl", "", "denoise", Expect::Same}},
      {"unet_fp8", {"forge", "sdxl", "", "denoise", Expect::Lower}},
      {"text_encoder_fp8", {"forge", "sdxl", "", "text_encode", Expect::Lower}},
      {"vae_cpu", {"forge", "sdxl", "", "vae_decode", Expect::Lower}},
      {"cpu", {"comfyui", "sd15", "", "denoise", Expect::Lower}},
      // The same effects through the other tools' spellings.
      {"lowvram", {"comfyui", "sdxl", "", "text_encode", Expect::Lower}},  // ComfyUI: text encoders on the CPU
      {"attention:doggettx", {"forge", "sd15", "", "denoise", Expect::Higher}},
      {"attention:doggettx", {"comfyui", "sd15", "", "denoise", Expect::Higher}},
      {"attention:sub_quadratic", {"forge", "sd15", "", "denoise", Expect::Same}},
      {"attention:sub_quadratic", {"comfyui", "sd15", "", "denoise", Expect::Same}},
      {"attention:sdp", {"forge", "sd15", "", "denoise", Expect::Same}},
      {"attention:sdp", {"comfyui", "sd15", "", "denoise", Expect::Same}},
      {"attention:xformers", {"forge", "sd15", "", "denoise", Expect::Same}},
      {"all_fp32", {"comfyui", "sd15", "", "denoise", Expect::Higher}},
      {"vae_fp32", {"forge", "sd15", "", "vae_decode", Expect::Higher}},
      {"vae_fp16", {"forge", "sd15", "--vae-in-fp32", "vae_decode", Expect::Lower}},
      {"vae_bf16", {"forge", "sd15", "--vae-in-fp32", "vae_decode", Expect::Lower}},
      {"unet_fp8", {"comfyui", "sdxl", "", "denoise", Expect::Lower}},
      // They decide how ComfyUI loads an fp8 file, which a profile does not name: tests/comfyui_test.cpp has their effect.
      {"unet_16bit", {"comfyui", "sdxl", "", "denoise", Expect::Same}},
      // Forge keeps SD 1.5's weights in fp32 on a Pascal card where they fit; --unet-in-fp16 / -bf16 store them in 16 bits.
      {"unet_16bit", {"forge", "sd15", "", "denoise", Expect::Lower, "GTX 1070"}},
      {"comfy_fp8_compute", {"comfyui", "sdxl", "", "denoise", Expect::Same}},
      // should_use_fp16 forced: fp16 compute on a card that would run fp32.
      {"force_fp16", {"comfyui", "sd15", "", "denoise", Expect::Lower, "GTX 1070"}},
      {"force_fp16", {"forge", "sd15", "", "denoise", Expect::Lower, "GTX 1070"}},
      {"text_encoder_fp8", {"comfyui", "sdxl", "", "text_encode", Expect::Lower}},
      {"vae_cpu", {"comfyui", "sdxl", "", "vae_decode", Expect::Lower}},
      {"forge_offload", {"comfyui", "sdxl", "", "denoise", Expect::Same}},
      {"cpu", {"a1111", "sd15", "--xformers", "denoise", Expect::Lower}},
      {"cpu", {"forge", "sd15", "", "denoise", Expect::Lower}},
      {"comfy_highvram", {"forge", "flux", "", "denoise", Expect::Higher, "RTX 3060 8GB"}},
      {"comfy_gpu_only", {"forge", "flux", "", "denoise", Expect::Higher, "RTX 3060 8GB"}},
  };
  auto peak = [](const Case& c, const std::string& flags) {
    std::string text = std::string("generation:\n  tool: ") + c.tool + "\n  model: " + c.model + "\n  args: \"" + flags + "\"\n";
    if (c.side > 0) text += "  width: " + std::to_string(c.side) + "\n  height: " + std::to_string(c.side) + "\n";
    AnalyzeOptions options;
    options.gpu = c.gpu;
    const FileReport r = analyzeInput(Input{"effect.yaml", text}, options);
    REQUIRE(r.estimate);
    std::string names;
    for (const auto& p : r.estimate->phases) {
      if (toString(p.phase) == c.phase) return p.peakBytes;
      names += " " + std::string(toString(p.phase));
    }
    FAIL("the case names phase " << c.phase << ", which the estimate for `" << flags << "` does not have; it has:" << names);
    return 0.0;
  };
  int checked = 0;
  for (const auto& flag : knowledge().webui->flags) {
    if (flag.effect == FlagEffect::None) continue;
    const std::string effect =
        std::string(toString(flag.effect)) + (flag.effect == FlagEffect::Attention ? ":" + flag.backend : std::string());
    INFO(flag.name << " (" << effect << ")");
    const auto [first, last] = byEffect.equal_range(effect);
    REQUIRE(first != last);
    // The case for a tool the flag belongs to.
    const Case* found = nullptr;
    for (auto it = first; it != last; ++it) {
      WebUiTool tool;
      REQUIRE(parseWebUiTool(it->second.tool, tool));
      if (flag.existsIn(tool)) found = &it->second;
    }
    REQUIRE(found != nullptr);
    const Case& c = *found;
    const std::string value = flag.name == "--precision"      ? " full"
                              : flag.name == "--reserve-vram" ? " 2"
                              : flag.name == "--use-cpu"      ? " all"
                                                              : "";
    const std::string base = c.baseline;
    const double before = peak(c, base);
    const double after = peak(c, (base.empty() ? "" : base + " ") + flag.name + value);
    switch (c.expect) {
      case Expect::Lower: CHECK(after < before); break;
      case Expect::Higher: CHECK(after > before); break;
      case Expect::Same: CHECK_THAT(after, WithinRel(before, 1e-9)); break;
    }
    ++checked;
  }
  CHECK(checked >= 50);  // every flag with an effect (56 today) went through a case above
}

// The schema's flag_effect enum (what rules/webui.yaml may say) and FlagEffect (what the setup handles)
// name the same effects: an effect in one and not the other fails here.
TEST_CASE("the flag effects of the data schema are FlagEffect's") {
  auto schema = readDocument(test::readFile(test::sourceDir() / "rules/schema/webui.schema.yaml"));
  const Node* enums = schema->root() ? schema->root()->find("enums") : nullptr;
  const Node* values = enums ? enums->find("flag_effect") : nullptr;
  REQUIRE(values != nullptr);
  REQUIRE(values->isSequence());
  std::vector<std::string> names;
  for (const Node* v : values->resolved()->items) {
    names.push_back(v->resolved()->text);
    INFO(names.back());
    const auto effect = parseFlagEffect(names.back());
    REQUIRE(effect.has_value());
    CHECK(toString(*effect) == names.back());
  }
  constexpr int kEffects = static_cast<int>(FlagEffect::Cpu) + 1;  // Cpu is the last
  CHECK(names.size() == kEffects);
  for (int i = 0; i < kEffects; ++i) {
    const std::string name(toString(static_cast<FlagEffect>(i)));
    CHECK(std::find(names.begin(), names.end(), name) != names.end());
    CHECK((i == 0 || name != "none"));  // each effect has its own name
  }
}

TEST_CASE("a memory manager's partial loading in a log is reported as slow, with its size", "[shared]") {
  OOMLINT_REQUIRE_SHARED();
  const auto corpus = test::sharedDir() / "corpus/logs";
  const FileReport forge = analyzeInput(Input{"forge.log", test::readFile(corpus / "017_forge_flux-shared-swap-50.log")});
  REQUIRE(forge.log);
  CHECK(forge.log->offloaded);
  CHECK(forge.log->offloadedBytes == static_cast<std::int64_t>(17496.00 * 1024 * 1024));
  CHECK(test::hasCode(forge, "OL708"));
  CHECK_FALSE(test::hasCode(forge, "OL601"));  // slow, not an OOM
  const FileReport comfy = analyzeInput(Input{"comfy.log", test::readFile(corpus / "025_comfyui_wan21-gguf-flattened.log")});
  REQUIRE(comfy.log);
  CHECK(comfy.log->offloadedBytes == static_cast<std::int64_t>(4633.39 * 1024 * 1024 + 0.5));
  CHECK(test::hasCode(comfy, "OL708"));
  CHECK(test::hasCode(comfy, "OL601"));
}

TEST_CASE("a ControlNet preprocessor with a model has its own phase; --use-cpu controlnet empties it") {
  const std::string profile =
      "generation:\n  tool: a1111\n  model: sd15\n  args: --xformers\n  controlnet:\n"
      "    - {model: control_v11f1p_sd15_depth, preprocessor: depth_zoe}\n";
  const FileReport r = checkOn(profile, "RTX 3060 12GB");
  REQUIRE(r.estimate);
  const PhaseEstimate& pre = phase(*r.estimate, "controlnet_preprocess");
  bool annotator = false;
  for (const auto& c : pre.components) annotator |= c.name == "preprocessor weights" && c.bytes == 1440000000.0;
  CHECK(annotator);
  // The parameters block names the module too.
  const WebUiInput in = readWebUiInput(
      "Steps: 20, Size: 512x512, Model: v1-5-pruned-emaonly, ControlNet 0: \"Module: openpose_full, Model: control_v11p_sd15_openpose\"\n");
  const auto setup = setupOf(in);
  REQUIRE(setup.estimable());
  REQUIRE(setup.controlnets.size() == 1);
  REQUIRE(setup.controlnets[0].preprocessor != nullptr);
  CHECK(setup.controlnets[0].preprocessor->id == "openpose");
  // On the CPU: no preprocess phase, no ControlNet weights on the GPU.
  const std::string onCpu = std::string(profile).replace(profile.find("--xformers"), 10, "--xformers --use-cpu controlnet");
  const FileReport moved = checkOn(onCpu, "RTX 3060 12GB");
  REQUIRE(moved.estimate);
  for (const auto& p : moved.estimate->phases) {
    CHECK(p.phase != Phase::ControlnetPreprocess);
    for (const auto& c : p.components) CHECK(c.name != "ControlNet weights");
  }
}

// The VAE decode's K comes from the decoder's structure (rules/webui.yaml vae_decoder); the CPU profiler's
// peak over the full-width decoder (scripts/census/vae_decode.py → tests/census/vae-decode.json) measured
// the same live sets, per tool's ResnetBlock style, in bf16 and fp32.
TEST_CASE("the VAE decoder's structural K is the CPU-measured one") {
  const auto measured = readDocument(test::readFile(test::sourceDir() / "tests/census/vae-decode.json"));
  const Node* k = measured->root() ? measured->root()->find("k") : nullptr;
  REQUIRE(k != nullptr);
  const WebUiKnowledge& w = *knowledge().webui;
  for (WebUiTool tool : {WebUiTool::A1111, WebUiTool::Forge, WebUiTool::ComfyUi}) {
    const std::string& style = w.vaeResnetStyleByTool[static_cast<std::size_t>(tool)];
    for (const char* dtype : {"bfloat16", "float32"}) {
      INFO(toString(tool) << " (" << style << ", " << dtype << ")");
      const Node* run = k->find(style + "/" + dtype);
      REQUIRE(run != nullptr);
      CHECK_THAT(w.vaeDecodeBytesPerPixel(tool), WithinRel(std::stod(run->find("k")->resolved()->text), 1e-9));
    }
  }
  CHECK(w.vaeDecodeBytesPerPixel(WebUiTool::A1111) == 768);  // 3 × 256 channels at full resolution
  CHECK(w.vaeDecodeBytesPerPixel(WebUiTool::ComfyUi) == 640);  // 2 × 256 + conv1's 128
}

// Forge's backend/memory_management.py (498dfcae) on a card its should_use_fp16 fails (Pascal on any OS, GTX 16):
// computation fp32, the VAE fp32, the text encoders on the CPU unless --always-gpu, and the weights fp32 where 4 B per
// parameter fit 0.9 of the free memory less its 1 GiB minimum (SD 1.5 on a GTX 1070: 3.4 GB of 0.9 × 7.1 − 1 = 5.4 GiB).
TEST_CASE("Forge on a Pascal or GTX 16 card: fp32 compute and VAE, text encoders on the CPU, small weights in fp32") {
  const auto estimateOn = [](const char* gpu, const std::string& model, const std::string& args = "") {
    AnalyzeOptions options;
    options.gpu = gpu;
    const FileReport r = analyzeInput(
        Input{"forge.yaml", "generation:\n  tool: forge\n  model: " + model + "\n  args: \"" + args + "\"\n  width: 512\n  height: 512\n"}, options);
    REQUIRE(r.estimate.has_value());
    return *r.estimate;
  };
  const auto part = [](const Estimate& e, const char* phase, const char* component) {
    return test::component(test::phase(e, phase), component);
  };
  const Estimate pascal = estimateOn("GTX 1070", "sd15"), turing = estimateOn("RTX 2060", "sd15");
  const double unet = knowledge().architectures.byId("sd1")->denoiser.params;
  CHECK(part(pascal, "denoise", "UNet weights") == Approx(4 * unet));
  CHECK(part(turing, "denoise", "UNet weights") == Approx(2 * unet));
  REQUIRE(part(turing, "denoise", "UNet activations") > 0);
  CHECK(part(pascal, "denoise", "UNet activations") == Approx(2 * part(turing, "denoise", "UNet activations")));
  CHECK(part(pascal, "vae_decode", "VAE weights") == Approx(2 * part(turing, "vae_decode", "VAE weights")));
  REQUIRE(part(turing, "text_encode", "text encoder weights") > 0);
  CHECK(part(pascal, "text_encode", "text encoder weights") == 0);
  CHECK(part(estimateOn("GTX 1070", "sd15", "--always-gpu"), "text_encode", "text encoder weights") > 0);
  // SDXL's 2.57 B × 4 B would not fit: 16-bit weights, still fp32 compute. A GTX 1660 Super alike.
  CHECK(part(estimateOn("GTX 1070", "sdxl"), "denoise", "UNet weights") == Approx(2 * knowledge().architectures.byId("sdxl")->denoiser.params));
  CHECK(part(estimateOn("GTX 1660 Super", "sd15"), "denoise", "UNet weights") == Approx(4 * unet));
  // A1111 has no such rule.
  AnalyzeOptions options;
  options.gpu = "GTX 1070";
  const FileReport a1111 = analyzeInput(Input{"a.yaml", "generation:\n  tool: a1111\n  model: sd15\n  width: 512\n  height: 512\n"}, options);
  REQUIRE(a1111.estimate.has_value());
  CHECK(part(*a1111.estimate, "denoise", "UNet weights") == Approx(2 * unet));
}

// The ComfyUI and Forge profiles' dtype levers: the fp8 flag chooses the dtype (the card's rules no longer apply: an SDXL
// that fits 16 bits on an RTX 3060 8 GB still halves), and a written fp32 flag is dropped before any quantization.
TEST_CASE("a ComfyUI or Forge profile's plan: the fp8 flag halves the weights whatever the card; an fp32 flag goes first") {
  const auto stepFor = [](const FileReport& r, std::string_view text) -> const PlanStep* {
    for (const auto& step : r.plan) {
      if (step.fix.toJson.find(text) != std::string::npos) return &step;
    }
    return nullptr;
  };
  // SDXL with two ControlNets under --gpu-only: 16-bit weights (5.1 GB fit 0.88 × 7.8 GiB − 1.2 GiB), out of memory; the
  // fp8 flag saves half the UNet's weights.
  const FileReport comfy = checkOn(
      "generation:\n  tool: comfyui\n  model: sdxl\n  width: 1024\n  height: 1024\n  args: \"--gpu-only\"\n  controlnet:\n"
      "    - model: controlnet-canny-sdxl-1.0\n    - model: controlnet-depth-sdxl-1.0\n",
      "RTX 3060 8GB");
  REQUIRE(comfy.estimate);
  REQUIRE(comfy.estimate->verdict != Verdict::Fits);
  const PlanStep* fp8 = stepFor(comfy, "--fp8_e4m3fn-unet");
  REQUIRE(fp8 != nullptr);
  CHECK(fp8->savesBytes == Approx(knowledge().architectures.byId("sdxl")->denoiser.params).epsilon(0.05));
  // Forge with --all-in-fp32: dropping it is the first dtype step.
  const FileReport forge = checkOn(
      "generation:\n  tool: forge\n  model: sdxl\n  width: 1024\n  height: 1024\n  args: \"--all-in-fp32 --always-gpu\"\n", "RTX 3060 8GB");
  REQUIRE(forge.estimate);
  REQUIRE(forge.estimate->verdict != Verdict::Fits);
  const PlanStep* drop = stepFor(forge, "\"--always-gpu\"");
  REQUIRE(drop != nullptr);
  CHECK(drop->savesBytes > 0);
  CHECK(stepFor(forge, "--unet-in-fp8-e4m3fn") == nullptr);
}
