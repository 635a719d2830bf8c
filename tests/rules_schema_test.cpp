// The rules/ data schemas (rules/schema/, rules/compiler/rules_schema.h): every data file passes its
// schema, and the rules compiler turns a misspelt key, a missing figure or a wrong type into a build
// error at file:line:column.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "base/document/reader.h"
#include "base/knowledge/knowledge.h"
#include "rules_schema.h"
#include "test_support.h"

using namespace oomlint;

namespace {

const char* const kRulesFiles[] = {"catalog", "ai-toolkit/schema", "ai-toolkit/architectures", "gpus", "memory", "webui", "comfyui", "advice", "logs", "other-trainers"};

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The 1-based line of the first line of `text` that starts with `prefix`.
int lineOf(const std::string& text, const std::string& prefix) {
  std::istringstream lines(text);
  std::string line;
  for (int n = 1; std::getline(lines, line); ++n) {
    if (line.rfind(prefix, 0) == 0) return n;
  }
  FAIL("no line starts with " << prefix);
  return 0;
}

std::string replaceLine(std::string text, const std::string& prefix, const std::string& with) {
  auto at = text.find("\n" + prefix);
  REQUIRE(at != std::string::npos);
  auto end = text.find('\n', at + 1);
  return text.replace(at + 1, end - at - 1, with);
}

struct Run {
  int status;
  std::string errors;
};

// Runs the rules compiler as CMake runs it, from a copy of rules/ whose `file` (memory.yaml by default) is `data`.
Run compile(const std::string& data, const std::string& file = "memory.yaml") {
  const auto dir = std::filesystem::temp_directory_path() / ("oomlint-rules-schema-test-" + std::to_string(std::rand()));
  std::filesystem::create_directories(dir);
  std::filesystem::copy(test::sourceDir() / "rules", dir / "rules", std::filesystem::copy_options::recursive);
  std::ofstream(dir / "rules" / file, std::ios::binary | std::ios::trunc) << data;
  const std::string command = "cd \"" + dir.string() + "\" && \"" OOMLINT_RULES_COMPILER "\" --tables out.cpp catalog ai-toolkit/schema "
                              "ai-toolkit/architectures gpus memory webui comfyui sd-scripts musubi-tuner advice logs other-trainers 2> errors.txt";
  Run run{std::system(command.c_str()), slurp(dir / "errors.txt")};
  CHECK(std::filesystem::exists(dir / "out.cpp") == (run.status == 0));
  std::filesystem::remove_all(dir);
  return run;
}

}  // namespace

TEST_CASE("every rules/ data file passes its schema") {
  for (const char* name : kRulesFiles) {
    INFO(name);
    std::vector<rules::SchemaProblem> problems;
    auto schema = rules::DataSchema::read(slurp(test::sourceDir() / "rules/schema" / (std::string(name) + ".schema.yaml")), problems);
    for (const auto& p : problems) FAIL_CHECK(p.at.line << ":" << p.at.column << ": " << p.message);
    auto doc = readDocument(slurp(test::sourceDir() / "rules" / (std::string(name) + ".yaml")));
    REQUIRE(doc->problems().empty());
    for (const auto& p : schema->validate(doc->root(), "data")) FAIL_CHECK(p.at.line << ":" << p.at.column << ": " << p.message);
  }
}

TEST_CASE("the rules compiler rejects a broken rules file at file:line:column") {
  const std::string good = slurp(test::sourceDir() / "rules/memory.yaml");
  SECTION("the real file compiles") {
    auto run = compile(good);
    CHECK(run.status == 0);
    CHECK(run.errors.empty());
  }
  SECTION("a misspelt key names the closest allowed key, and the key it replaced goes missing") {
    auto run = compile(replaceLine(good, "  multiplier:", "  multiplyer: 1.2"));
    CHECK(run.status != 0);
    const int line = lineOf(good, "  multiplier:");
    const int first = lineOf(good, "activations:") + 1;
    CHECK_THAT(run.errors, Catch::Contains("rules/memory.yaml:" + std::to_string(line) +
                                           ":3: error: unknown key `multiplyer` in `memory.activations` (did you mean `multiplier`?)\n"));
    CHECK_THAT(run.errors, Catch::Contains("rules/memory.yaml:" + std::to_string(first) +
                                           ":3: error: missing key `multiplier` in `memory.activations`\n"));
  }
  SECTION("a missing figure") {
    auto run = compile(replaceLine(good, "  allocator_fraction:", "  # allocator_fraction removed"));
    CHECK(run.status != 0);
    const int first = lineOf(good, "overheads:") + 1;
    CHECK_THAT(run.errors, Catch::Contains("rules/memory.yaml:" + std::to_string(first) +
                                           ":3: error: missing key `allocator_fraction` in `memory.overheads`\n"));
  }
  SECTION("a census family's misspelt coefficient, at its place in the list") {
    const std::string key = "      recompute_bytes_per_token_channel:";
    auto run = compile(replaceLine(good, key, "      recompute_bytes_per_token_chanel: 1"));
    CHECK(run.status != 0);
    CHECK_THAT(run.errors, Catch::Contains("rules/memory.yaml:" + std::to_string(lineOf(good, key)) +
                                           ":7: error: unknown key `recompute_bytes_per_token_chanel` in "
                                           "`memory.activations.families[0]` (did you mean `recompute_bytes_per_token_channel`?)\n"));
  }
  SECTION("what crosses files: an architecture's activation family that memory.yaml lacks") {
    auto run = compile(replaceLine(good, "    - family: flux", "    - family: fluxx"));
    CHECK(run.status != 0);
    CHECK_THAT(run.errors, Catch::Contains(": activation_family `flux` is not in memory.yaml\n"));
  }
  SECTION("a wrong type, and an empty figure") {
    auto broken = replaceLine(good, "  lora_grad_bytes:", "  lora_grad_bytes: four");
    broken = replaceLine(broken, "  weights:", "  weights:");
    auto run = compile(broken);
    CHECK(run.status != 0);
    CHECK_THAT(run.errors, Catch::Contains("rules/memory.yaml:" + std::to_string(lineOf(good, "  lora_grad_bytes:")) +
                                           ":20: error: `memory.trainable.lora_grad_bytes` must be a number, not a string\n"));
    CHECK_THAT(run.errors, Catch::Contains("rules/memory.yaml:" + std::to_string(lineOf(good, "  weights:")) +
                                           ":11: error: `memory.uncertainty.weights` must be a number, not null\n"));
  }
}

TEST_CASE("the loader's checks across an entry: compute capability, latent upscale figures, whole-model widgets") {
  SECTION("an NVIDIA card without its compute capability") {
    const std::string gpus = slurp(test::sourceDir() / "rules/gpus.yaml");
    const std::string t4 = "  - name: T4\n    aliases: [\"tesla t4\", \"t4 16gb\", \"nvidia tesla t4\"]\n    vendor: nvidia\n";
    REQUIRE(gpus.find(t4 + "    compute_capability: 7.5\n") != std::string::npos);
    std::string broken = gpus;
    broken.erase(broken.find(t4) + t4.size(), std::string("    compute_capability: 7.5\n").size());
    const auto run = compile(broken, "gpus.yaml");
    CHECK(run.status != 0);
    CHECK_THAT(run.errors, Catch::Contains("gpus.yaml: T4: compute_capability is NVIDIA's, and every NVIDIA card has one"));
  }
  const std::string comfy = slurp(test::sourceDir() / "rules/comfyui.yaml");
  SECTION("a latent upscale model whose slow_conv3d figure is under its own") {
    const auto run = compile(replaceLine(comfy, "    vol2col_bytes_per_input_pixel: 245760", "    vol2col_bytes_per_input_pixel: 1000"), "comfyui.yaml");
    CHECK(run.status != 0);
    CHECK_THAT(run.errors, Catch::Contains("a latent upscale model needs bytes_per_input_pixel and vol2col_bytes_per_input_pixel, at least as large"));
  }
  SECTION("whole-model values without the widget that picks them") {
    const std::string lite = "  - {type: TaylorSeerLite, role: no_cost, widgets: [model_type, fresh_threshold, max_order, first_enhance, last_enhance],";
    const std::string indent = "\n     ", widget = "whole_model_widget: model_type, ";
    const std::size_t at = comfy.find(lite + indent + widget);
    REQUIRE(at != std::string::npos);
    std::string broken = comfy;
    broken.erase(at + lite.size() + indent.size(), widget.size());
    const auto run = compile(broken, "comfyui.yaml");
    CHECK(run.status != 0);
    CHECK_THAT(run.errors, Catch::Contains("node TaylorSeerLite: whole_model_widget and whole_model_values go together"));
  }
}

TEST_CASE("a schema's own mistakes are reported at its line and column") {
  std::vector<rules::SchemaProblem> problems;
  rules::DataSchema::read("types:\n  a: {x: numbr}\nroot: [a]\nextra: 1\n", problems);
  REQUIRE(problems.size() == 2);
  CHECK(problems[0].at.line == 4);
  CHECK(problems[0].message == "unknown schema key `extra` (a schema has `types:`, `enums:` and `root:`)");
  CHECK(problems[1].at.line == 2);
  CHECK(problems[1].at.column == 10);
  CHECK(problems[1].message == "unknown type `numbr` (did you mean `number`?)");
}

TEST_CASE("schema specs: unions, optional keys, free-form maps and lists") {
  std::vector<rules::SchemaProblem> problems;
  auto schema = rules::DataSchema::read(
      "types:\n  pair: [integer]\nroot:\n  a: integer|null\n  b?: string|pair\n  c: {\"*\": number}\n", problems);
  REQUIRE(problems.empty());
  auto messages = [&](const char* data) {
    auto doc = readDocument(data);
    std::string out;
    for (const auto& p : schema->validate(doc->root(), "t")) out += std::to_string(p.at.line) + ":" + std::to_string(p.at.column) + ": " + p.message + "\n";
    return out;
  };
  CHECK(messages("a: null\nb: [1, 2]\nc: {x: 1, y: 2.5}\n").empty());
  CHECK(messages("a: 1\nc: {}\n").empty());
  CHECK(messages("a: 1.5\nb: [1, x]\nc: {x: s}\n") ==
        "1:4: `t.a` must be an integer or null, not a number\n"
        "2:8: `t.b[1]` must be an integer, not a string\n"
        "3:8: `t.c.x` must be a number, not a string\n");
  CHECK(messages("b: true\n") ==
        "1:4: `t.b` must be a string or a list, not a boolean\n"
        "1:1: missing key `a` in `t`\n"
        "1:1: missing key `c` in `t`\n");
}

TEST_CASE("schema enums: a value from a named list, a misspelt one with the closest") {
  std::vector<rules::SchemaProblem> problems;
  auto schema = rules::DataSchema::read("enums:\n  mode: [low, high]\nroot:\n  a: mode\n  b?: [mode]\n  c?: mode|integer\n",
                                        problems);
  REQUIRE(problems.empty());
  CHECK(schema->enumIds("mode") == std::vector<std::string>{"low", "high"});
  CHECK(schema->enumIds("kind").empty());
  auto messages = [&](const char* data) {
    auto doc = readDocument(data);
    std::string out;
    for (const auto& p : schema->validate(doc->root(), "t")) out += std::to_string(p.at.line) + ":" + std::to_string(p.at.column) + ": " + p.message + "\n";
    return out;
  };
  CHECK(messages("a: low\nb: [high, low]\nc: 3\n").empty());
  CHECK(messages("a: lwo\nb: [medium]\nc: true\n") ==
        "1:4: `t.a`: `lwo` is not a mode (one of low, high); did you mean `low`?\n"
        "2:5: `t.b[0]`: `medium` is not a mode (one of low, high)\n"
        "3:4: `t.c` must be a mode or an integer, not a boolean\n");
  CHECK(messages("a: 1\n") == "1:4: `t.a` must be a mode, not an integer\n");
  // The enum's own defects.
  std::vector<rules::SchemaProblem> own;
  rules::DataSchema::read("enums:\n  mode: [low, low]\n  number: [x]\n  odd: low\nroot: {a: mod}\n", own);
  std::string text;
  for (const auto& p : own) text += std::to_string(p.at.line) + ": " + p.message + "\n";
  CHECK(text ==
        "2: enum `mode`: `low` twice\n"
        "3: enum `number` has the name of a type\n"
        "4: enum `odd` is a list of its values\n"
        "5: unknown type `mod` (did you mean `mode`?)\n");
}

TEST_CASE("rules/logs.yaml's enums are the ids the C++ handles") {
  std::vector<rules::SchemaProblem> problems;
  auto schema = rules::DataSchema::read(slurp(test::sourceDir() / "rules/schema/logs.schema.yaml"), problems);
  REQUIRE(problems.empty());
  auto ids = [](const auto& array) { return std::vector<std::string>(array.begin(), array.end()); };
  CHECK(schema->enumIds("phase") == ids(kPhaseIds));
  CHECK(schema->enumIds("oom_kind") == ids(kOomKindIds));
  CHECK(schema->enumIds("oom_effect") == ids(kOomEffectIds));
  CHECK(schema->enumIds("oom_certainty") == ids(kOomCertaintyIds));
  CHECK(schema->enumIds("oom_figure") == ids(kOomFigureIds));
  CHECK(schema->enumIds("marker_effect") == ids(kMarkerEffectIds));
  CHECK(schema->enumIds("step_position") == ids(kStepPositionIds));
  CHECK(schema->enumIds("tool") == ids(kLogToolIds));
  CHECK(schema->enumIds("trainer") == ids(kLogTrainerIds));
  CHECK(schema->enumIds("bar_kind") == ids(kBarKindIds));
  CHECK(schema->enumIds("frame_clue") == ids(kFrameClueIds));
}

TEST_CASE("the log markers load as the scanner's typed tables") {
  const LogMarkers& logs = *knowledge().logs;
  REQUIRE(logs.oomMessages.size() == 31);
  CHECK(logs.oomMessages.front().effect == OomEffect::AbortedAfterRetries);
  CHECK(logs.oomMessages[5].phase == Phase::LatentCache);
  CHECK(logs.oomMessages[5].kindUnderMallocAsync == OomKind::ComfyAlloc);
  CHECK(logs.oomMessages.front().certainty == OomCertainty::Certain);
  CHECK(logs.oomMessages.back().kind == OomKind::HostRam);
  CHECK(logs.oomMessages.back().test.equals == std::vector<KnowledgeText>{"Killed"});
  CHECK(logs.oomMessages.back().certainty == OomCertainty::Suspected);
  CHECK_FALSE(logs.oomMessages.back().evidence.empty());
  CHECK(logs.allocationTableLines == 8);
  CHECK(logs.allocationTable.size() == 4);
  REQUIRE(logs.silentExits.size() == 3);
  CHECK(logs.silentExits[1].shellPrompt);
  CHECK(logs.silentExits[2].test.equals == std::vector<KnowledgeText>{"Press any key to continue . . ."});
  REQUIRE(logs.failedStages.size() == 9);
  CHECK(logs.failedStages.front().phase == Phase::Save);
  CHECK(logs.failedStages[5].phase == Phase::VaeDecode);  // a node pack's decode node named by ComfyUI's popup
  CHECK(logs.failedStages[7].phase == Phase::Load);  // a ComfyUI loader node named by its error report
  REQUIRE(logs.markers.size() == 21);
  CHECK(logs.markers.front().onlyBeforeTraining);
  CHECK(logs.markers[9].announcesStep == StepPosition::AfterColon);
  CHECK(logs.markers[11].keeps == Phase::VaeDecode);  // a VAE's load after the sampler is the decode's
  CHECK(logs.markers.back().effect == MarkerEffect::SkippedBatch);
  CHECK(logs.toolRank("forge") == 0);
  CHECK(logs.toolRank("a1111") == 2);
  CHECK(logs.toolRank("") == 3);
  REQUIRE(logs.bars.size() == 8);
  CHECK(logs.bars[6].kind == BarKind::Generation);  // A1111's overall bar names its UI
  CHECK(logs.bars[6].tool == "a1111");
  CHECK(logs.bars[5].tool.empty());
  CHECK(logs.frames.size() == 16);
  CHECK(logs.quotedCode.size() == 3);
  CHECK(logs.cappedBy == std::vector<KnowledgeText>{" allowed"});
  // A word of several per-line tables is searched once: "loaded partially" is a marker, a ComfyUI sign and
  // an offload, one id.
  CHECK(logs.markers[12].test.contains[1] == "loaded partially");
  CHECK(logs.offload.contains[0] == "loaded partially");
  CHECK(logs.markers[12].test.containsIds[1] == logs.offload.containsIds[0]);
  CHECK(logs.toolSigns[1].test.containsIds[2] == logs.offload.containsIds[0]);
}

TEST_CASE("the tables moved from the C++ into rules/ keep the values the code had") {
  const Knowledge& k = knowledge();
  // rules/advice.yaml: the plans' resolution steps (advise/plan.cpp) and the report cut-offs.
  CHECK(k.advice.stepBelow(2048) == 1024);
  CHECK(k.advice.stepBelow(1024) == 768);
  CHECK(k.advice.stepBelow(600) == 512);
  CHECK(k.advice.stepBelow(512) == 0);
  CHECK(k.advice.stepAbove(512) == 768);
  CHECK(k.advice.stepAbove(768) == 1024);
  CHECK(k.advice.stepAbove(1100) == 1280);
  CHECK(k.advice.stepAbove(1300) == 1536);
  CHECK(k.advice.stepAbove(1536) == 0);
  CHECK(k.advice.logDisagreementFraction == 0.85);
  CHECK(k.advice.negligibleBytes == 0.05 * (1 << 30));
  // rules/comfyui.yaml: widget positions, GGUF bits, the decode retry's tiles, name tables.
  REQUIRE(k.comfyui->node("KSampler") != nullptr);
  CHECK(k.comfyui->node("KSampler")->widgetIndex("steps") == 2u);  // after the seed's control_after_generate
  CHECK(k.comfyui->node("KSamplerAdvanced")->widgetIndex("steps") == 3u);
  CHECK(k.comfyui->node("UNETLoader")->widgetIndex("weight_dtype") == 1u);
  CHECK(k.comfyui->node("EmptySD3LatentImage")->channels == 16);
  CHECK(k.comfyui->ggufQuant("flux1-dev-Q4_K_S.gguf")->bits == 4.5);
  CHECK(k.comfyui->ggufQuant("wan2.1-Q8_0.gguf")->bits == 8.5);
  CHECK(k.comfyui->fallbackTileImage == 512);
  CHECK(k.comfyui->fallbackTileVideo == 256);
  CHECK(ComfyUiKnowledge::firstMatch(k.comfyui->modelFamilies, "wan2.1_i2v_720p_14B_fp16.safetensors")->value == "wan21_i2v");
  CHECK(ComfyUiKnowledge::firstMatch(k.comfyui->modelFamilies, "models\\flux\\flux1-dev.safetensors")->value == "flux");
  CHECK(ComfyUiKnowledge::firstMatch(k.comfyui->vaeChannels, "sdxl_vae.safetensors")->value == "4");
  CHECK(ComfyUiKnowledge::firstMatch(k.comfyui->vaeChannels, "ae.safetensors")->value == "16");
  // rules/webui.yaml: the tiled-VAE decoder tile, checkpoint families, TAESD and the profile's keys.
  CHECK(k.webui->decoderTile(80e9) == 256);
  CHECK(k.webui->decoderTile(24e9) == 192);
  CHECK(k.webui->decoderTile(16e9) == 128);
  CHECK(k.webui->decoderTile(12e9) == 96);
  CHECK(k.webui->decoderTile(8e9) == 64);
  CHECK(k.webui->checkpointFamily("flux1-dev-fp8") == "flux");
  CHECK(k.webui->checkpointFamily("sd3.5_large") == "sd3");
  CHECK(k.webui->checkpointFamily("ponydiffusionv6") == "sdxl");
  CHECK(k.webui->checkpointFamily("v2-1_768-ema-pruned") == "sd2");
  CHECK(k.webui->checkpointFamily("v1-5-pruned-emaonly") == "sd15");
  CHECK(k.webui->taesdDecodeBytesPerPixel == 150);
  CHECK(k.webui->profileKeys.size() == 13);
  // rules/webui.yaml: the default sizes, attention backends, Forge's partial-load budget and the ControlNet
  // activation share the WebUI code had as literals.
  CHECK(k.webui->family("sd15")->defaultSize == 512);
  CHECK(k.webui->family("sd2")->defaultSize == 512);
  CHECK(k.webui->family("sdxl")->defaultSize == 1024);
  CHECK(k.webui->family("flux")->defaultSize == 1024);
  CHECK(k.webui->defaultAttention(WebUiTool::A1111) == "doggettx");
  CHECK(k.webui->defaultAttention(WebUiTool::Forge) == "sdp");
  CHECK(k.webui->defaultAttention(WebUiTool::ComfyUi) == "sdp");
  CHECK(k.webui->forgePartialLoadDivisor == 1.3);
  CHECK(k.webui->forgePartialLoadMarginBytes == 1.25 * (1 << 30));
  CHECK(k.webui->controlnetActivationShare == 0.5);
}
