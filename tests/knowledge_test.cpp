#include <catch2/catch.hpp>

#include <array>
#include <map>
#include <filesystem>
#include <regex>
#include <set>
#include <stdexcept>
#include <thread>

#include "base/knowledge/embedded.h"
#include "base/knowledge/knowledge.h"
#include "base/knowledge/knowledge_tape.h"
#include "base/text/ascii.h"
#include "engine/estimate_core.h"
#include "fixture_expectations.h"
#include "test_support.h"

using namespace oomlint;

TEST_CASE("the compiled rules data reads back whole") {
  const Knowledge& k = knowledge();
  Knowledge again;
  CHECK(readKnowledge(knowledgeTape(), again));  // the tables and the walk agree
  // The parts read on first use, each from its own stretch of the tables.
  CHECK(again.comfyui.load());
  CHECK(again.sdScripts.load());
  CHECK(again.musubiTuner.load());
  CHECK(again.logs.load());
  CHECK(again.webui.load());
  CHECK(again.otherTrainers.load());
  for (const auto& [name, set] : again.schema.valueSets()) {
    INFO(name);
    CHECK(set.load());
    CHECK(set->name == name);
  }
  // Each schema section, and each of its keys: found by the name the section's read gives, its spec read on first
  // lookup from its own stretch of the tables.
  for (const auto& [name, section] : again.schema.sections()) {
    INFO(name);
    CHECK(section.load());
    CHECK(section->keyNames.size() == section->specs.size());
    CHECK(section->required.size() == section->specs.size());
    const SectionSpec& spec = *section;  // a structured binding clang 14 cannot capture
    spec.forEachKey([&](const SchemaKey& key) {
      INFO(std::string(key.name));
      CHECK(key.load());
      CHECK(spec.find(key.name) == &key.spec());
    });
  }
  CHECK(again.schema.section("process")->isRequired("type"));
  CHECK_FALSE(again.schema.section("process")->isRequired("training_folder"));
  // Each architecture: found by what start-up reads, its dimensions read on first use, and the two agree.
  for (const auto& entry : again.architectures.entries()) {
    INFO(std::string(entry.arch));
    CHECK(entry.details.load());
    CHECK(entry.details->arch == entry.arch);
    CHECK(entry.details->legacyFlag == entry.legacyFlag);
    CHECK(entry.details->trainerOnly == entry.trainerOnly);
    CHECK(entry.details->aliases.size() == entry.aliases.size());
  }
  REQUIRE(again.schema.section("train") != nullptr);
  const KeySpec* steps = again.schema.section("train")->find("steps");
  REQUIRE(steps != nullptr);
  CHECK(steps->defaultValue != nullptr);  // a default value read with its section, kept by it
  CHECK(again.comfyui->node("KSampler") != nullptr);
  CHECK(again.sdScripts->scripts.size() == k.sdScripts->scripts.size());
  CHECK(k.catalog.rules().size() >= 40);
  CHECK(k.schema.section("train") != nullptr);
  CHECK(k.architectures.entries().size() >= 40);
  CHECK(k.architectures.find("wan21:14b")->arch == "wan21");
  CHECK(k.architectures.find("flex1")->arch == "flux");
}

TEST_CASE("the census activation families load, filled from the defaults, and architectures name known ones") {
  const Knowledge& k = knowledge();
  const MemoryModel& m = k.memory;
  REQUIRE_FALSE(m.activationFamilies.empty());
  const ActivationCoefficients defaults = m.activations("");
  CHECK(defaults.family.empty());
  CHECK(m.activations("no such family").recomputeBytesPerTokenChannel == defaults.recomputeBytesPerTokenChannel);
  for (const auto& f : m.activationFamilies) {
    INFO(f.family);
    // Every figure is there (a family names only what the census measured; the rest are the defaults), and
    // the block in backward peaks above what it saved, which is above its checkpointed input.
    CHECK(f.recomputeBytesPerTokenChannel > f.blockBytesPerTokenChannel);
    CHECK(f.blockBytesPerTokenChannel > m.checkpointBytesPerTokenChannel);
    CHECK(f.loraInferenceBytesPerTokenChannel > f.inferenceBytesPerTokenChannel);
    CHECK(f.unetBytesPerLatentPixelFull > f.unetBytesPerLatentPixelCheckpointed);
    CHECK(f.unetInferenceBytesPerLatentPixel > 0);
    // Under autocast the adapted Linears save bf16 inputs, not fp32: less kept, less at the block in backward.
    CHECK(f.autocastBlockBytesPerTokenChannel < f.blockBytesPerTokenChannel);
    CHECK(f.autocastRecomputeBytesPerTokenChannel < f.recomputeBytesPerTokenChannel);
    CHECK(f.autocastLoraInferenceBytesPerTokenChannel < f.loraInferenceBytesPerTokenChannel);
  }
  CHECK(m.activations("sd1_unet").recomputeBytesPerTokenChannel == defaults.recomputeBytesPerTokenChannel);
  CHECK(m.activations("sd1_unet").unetBytesPerLatentPixelCheckpointed != defaults.unetBytesPerLatentPixelCheckpointed);
  const Architecture* wan = k.architectures.find("wan21");
  REQUIRE(wan != nullptr);
  CHECK(wan->denoiser.activationFamily == "wan");
  CHECK_FALSE(wan->denoiser.cfgBatched);
  REQUIRE(wan->variantFor("wan21:1.3b") != nullptr);
  CHECK(wan->variantFor("wan21:1.3b")->denoiser.activationFamily == "wan_1.3b");
  CHECK(k.architectures.find("flux")->denoiser.activationFamily == "flux");
  CHECK(k.architectures.find("flux")->denoiser.cfgBatched);
  CHECK(k.architectures.find("lumina2")->denoiser.activationFamily.empty());  // no census: the defaults
}

TEST_CASE("the knowledge's strings are views into the tables, not copies") {
  const std::string_view text = knowledgeTape().text;
  const auto inTables = [&](std::string_view s) {
    return !s.empty() && std::less_equal<>()(text.data(), s.data()) && std::less_equal<>()(s.data() + s.size(), text.data() + text.size());
  };
  const Knowledge& k = knowledge();
  CHECK(inTables(k.gpus.all().front().name));
  CHECK(inTables(k.catalog.rules().front().title));
  REQUIRE(k.schema.section("train") != nullptr);  // a lazy part: its own stretch of the same text
  CHECK(inTables(k.schema.section("train")->keyNames.joined()));
  CHECK(inTables(k.schema.section("train")->required));
  CHECK(inTables(k.logs->logSignsHead.front()));
}

TEST_CASE("every rule has a unique code and name, and a documentation page with every section") {
  std::set<std::string> codes, names;
  for (const auto& rule : knowledge().catalog.rules()) {
    INFO(rule.code);
    CHECK(std::regex_match(std::string(rule.code), std::regex("OL[1-9][0-9]{2}")));
    CHECK(codes.insert(rule.code).second);
    CHECK(names.insert(rule.name).second);
    const std::string page(rulePage(rule.code));
    REQUIRE_FALSE(page.empty());
    CHECK(page.rfind("# " + rule.code + " " + rule.name, 0) == 0);
    for (const char* section : {"## What it does", "## Why it matters", "## Example", "## Use instead", "## Source"}) {
      CHECK(page.find(section) != std::string::npos);
    }
  }
  // And no page without a rule.
  for (const auto& entry : std::filesystem::directory_iterator(test::sourceDir() / "docs/rules")) {
    const std::string stem = entry.path().stem().string();
    if (stem == "README") continue;
    INFO(entry.path());
    CHECK(codes.count(stem) == 1);
  }
}

TEST_CASE("the rule index lists every rule with its catalog severity") {
  const std::string index = test::readFile(test::sourceDir() / "docs/rules/README.md");
  for (const auto& rule : knowledge().catalog.rules()) {
    INFO(rule.code);
    CHECK(index.find("[" + rule.code + "]|" + rule.name + "|" + std::string(toString(rule.severity)) + "|") != std::string::npos);
    CHECK(index.find("[" + rule.code + "]: " + rule.code + ".md") != std::string::npos);
  }
}

// Against the fixtures' parsed expectations (fixture_expectations.h): a code that appears only in a comment,
// a `disable=` or a message does not count.
TEST_CASE("every rule code is expected by at least one fixture") {
  const auto root = test::sourceDir() / "tests/fixtures";
  std::set<std::string> expected;
  for (const auto& file : test::fixtureInputs(root)) {
    const test::Expectations e = test::expectationsOf(file, root);
    INFO(file.string());
    CHECK(e.errors.empty());
    for (const auto& item : e.items) expected.insert(item.code);
  }
  for (const auto& rule : knowledge().catalog.rules()) {
    INFO(rule.code << " " << rule.name << ": no fixture expects it");
    CHECK(expected.count(rule.code) == 1);
  }
  // And no fixture expects a code the catalog does not have.
  for (const auto& code : expected) {
    INFO(code);
    CHECK(knowledge().catalog.find(code) != nullptr);
  }
}

TEST_CASE("schema value sets accept what AI Toolkit accepts") {
  const Schema& s = knowledge().schema;
  CHECK(s.valueSet("optimizer")->accepts("AdamW8bit"));
  CHECK(s.valueSet("optimizer")->accepts("prodigy"));
  CHECK_FALSE(s.valueSet("optimizer")->accepts("adamw9bit"));
  CHECK(s.valueSet("qtype")->accepts("uint4"));
  CHECK(s.valueSet("dtype")->accepts("bf16"));
  CHECK(s.section("train")->find("batch_size")->min.value() == 1);
}

TEST_CASE("trainer-only architectures answer other trainers' tables, never AI Toolkit's model.arch") {
  const Architectures& archs = knowledge().architectures;
  for (const char* id : {"hunyuan_video", "framepack"}) {
    INFO(id);
    REQUIRE(archs.byId(id) != nullptr);
    CHECK(archs.byId(id)->trainerOnly);
    CHECK(archs.find(id) == nullptr);
    const auto names = archs.names();
    CHECK(std::find(names.begin(), names.end(), id) == names.end());
  }
  CHECK(archs.find("wan21") == archs.byId("wan21"));
}

// torch 2.9's slow_conv3d is costed from the coder's structure (memory.yaml vol2col_channels, vaeWork's 96·27·T +
// 96·(4T + 2)): the CPU profiler's peak over the coder's residual block with oneDNN off, the same algorithm
// (scripts/census/conv3d_columns.py → tests/census/conv3d-columns.json), for a single image and a 4-frame chunk.
TEST_CASE("the slow_conv3d count is the CPU-measured one for both 3D-convolution coders") {
  const auto measured = readDocument(test::readFile(test::sourceDir() / "tests/census/conv3d-columns.json"));
  const Node* chunks = measured->root() ? measured->root()->find("chunks") : nullptr;
  REQUIRE(chunks != nullptr);
  for (const char* family : {"wan21", "qwen"}) {
    const VaeConstants* v = knowledge().memory.vae(family);
    REQUIRE(v != nullptr);
    REQUIRE(v->vol2colChannels > 0);
    const double c = v->vol2colChannels;
    for (const int frames : {1, 4}) {
      const Node* run = chunks->find(std::to_string(frames));
      REQUIRE(run != nullptr);
      INFO(family << ", " << frames << " frame(s)");
      // The estimators' count (vol2colPerPixel: 96·27·T + 96·(4T + 2)), for an image and for a clip whose chunks
      // are 4 frames long.
      const Vol2col count = vol2colPerPixel(v->vol2colChannels, 4, frames == 1 ? 1 : frames + 1);
      CHECK(count.columns == Approx(c * 27 * frames));
      CHECK(count.columns + count.maps == Approx(std::stod(run->find("block_k")->resolved()->text)));
    }
  }
}

// Plain attention's score matrices (memory.yaml plain_attention_*): what one self-attention layer keeps for backward, adds
// in its backward and holds under no_grad, in score matrices, as the CPU census measured them
// (scripts/census/plain_attention.py → tests/census/plain-attention.json; the profiler's peaks carry a few percent of
// q, k, v grads and rounding beside the matrices).
TEST_CASE("plain attention's matrices are the CPU census's") {
  const auto measured = readDocument(test::readFile(test::sourceDir() / "tests/census/plain-attention.json"));
  const Node* runs = measured->root() ? measured->root()->find("runs") : nullptr;
  REQUIRE((runs != nullptr && runs->isSequence() && !runs->items.empty()));
  const MemoryModel& m = knowledge().memory;
  for (const Node* run : runs->items) {
    INFO(run->find("tokens")->resolved()->text << " tokens");
    CHECK(run->find("saved_matrices")->number() == Approx(m.plainAttentionSavedMatrices));
    CHECK(run->find("backward_peak_matrices")->number() == Approx(m.plainAttentionBackwardMatrices).epsilon(0.1));
    CHECK(run->find("inference_peak_matrices")->number() == Approx(m.plainAttentionInferenceMatrices).epsilon(0.1));
  }
}

// LTX-2's latent upscale model (rules/comfyui.yaml side_models): its working memory per input latent position is the
// CPU census's per output position (scripts/census/latent_upsampler.py at reduced widths, linear in the width) at its
// 1024 width, four output positions per input one; the slow_conv3d figure likewise.
TEST_CASE("the LTX-2 latent upscaler's figures are the CPU census's, scaled to its width") {
  const auto measured = readDocument(test::readFile(test::sourceDir() / "tests/census/latent-upsampler.json"));
  const Node* widths = measured->root() ? measured->root()->find("widths") : nullptr;
  REQUIRE(widths != nullptr);
  const SideModel* m = knowledge().comfyui->sideModel(NodeRole::LatentUpscaleModel, "ltx-2-spatial-upscaler-x2-1.0.safetensors");
  REQUIRE(m != nullptr);
  REQUIRE_FALSE(m->assumed());
  for (const int width : {64, 128}) {
    const Node* run = widths->find(std::to_string(width));
    REQUIRE(run != nullptr);
    const double scale = 1024.0 / width * 4;
    CHECK(m->bytesPerInputPixel == Approx(std::stod(run->find("peak_per_out_position")->resolved()->text) * scale));
    CHECK(m->vol2colBytesPerInputPixel == Approx(std::stod(run->find("with_scratch_per_out_position")->resolved()->text) * scale));
  }
}

// A trainer's image encode is costed from the encoder's structure (rules/memory.yaml image_encode_floor_k): the
// CPU profiler's peak over the full-width KL encoder (scripts/census/vae_encode.py → tests/census/vae-encode*.json),
// the larger of the tools' ResnetBlock styles as for the decoder, in bf16 and fp32, with 4 and 16 latent channels.
TEST_CASE("the KL encoder's structural floor is the CPU-measured one") {
  const VaeConstants* sd = knowledge().memory.vae("sd");
  REQUIRE(sd != nullptr);
  for (const char* file : {"tests/census/vae-encode.json", "tests/census/vae-encode-16ch.json"}) {
    const auto measured = readDocument(test::readFile(test::sourceDir() / file));
    const Node* k = measured->root() ? measured->root()->find("k") : nullptr;
    REQUIRE(k != nullptr);
    double largest = 0;
    for (const auto& [style, run] : k->resolved()->entries) largest = std::max(largest, std::stod(run->find("k")->resolved()->text));
    INFO(file);
    CHECK(sd->imageEncodeFloorK == largest);
  }
  // The decoder's top level is twice the encoder's width: the same style's floor is twice the encoder's, less the
  // encoder's three RGB input channels (ldm swish: 4 × 256 against 4 × 128 + 3).
  CHECK(2 * (sd->imageEncodeFloorK - 3) == sd->imageDecodeFloorK);
}

TEST_CASE("each ComfyUI memory mode a log names is set by a ComfyUI flag the WebUI data knows") {
  const Knowledge& k = knowledge();
  const LogMarkers& markers = *k.logs;
  REQUIRE(markers.vramStateFlags.size() >= 4);
  for (const auto& [state, flag] : markers.vramStateFlags) {
    INFO(state << " → " << flag);
    const WebUiFlag* known = k.webui->flag(flag);
    REQUIRE(known != nullptr);
    CHECK(known->existsIn(WebUiTool::ComfyUi));
  }
}

namespace {
struct Counted {
  int reads = 0;
};
}  // namespace

TEST_CASE("a lazy part is read once, by its first use; a read that throws is tried again by the next") {
  static int calls = 0;  // the reader is a plain function pointer, as the tables' are
  calls = 0;
  auto reader = +[](const KnowledgeTape&, Counted& value, KnowledgeNodes&) {
    if (++calls == 1) throw std::runtime_error("first read fails");
    ++value.reads;
    return true;
  };
  LazyPart<Counted> part;
  part.defer(KnowledgeTape{}, reader);
  CHECK(calls == 0);  // deferred: nothing read yet
  CHECK_THROWS(part.load());
  CHECK(part.load());
  CHECK(part->reads == 1);
  CHECK(part->reads == 1);  // read once, however often it is used
  CHECK(calls == 2);

  // Eight threads at once: one reads, the others wait for it.
  calls = 1;  // no more failures
  LazyPart<Counted> shared;
  shared.defer(KnowledgeTape{}, reader);
  std::array<int, 8> seen{};
  std::vector<std::thread> threads;
  for (int& s : seen) threads.emplace_back([&shared, &s] { s = shared->reads; });  // Catch2 asserts on one thread only
  for (auto& t : threads) t.join();
  for (int s : seen) CHECK(s == 1);
  CHECK(calls == 2);
}

namespace {
struct Located {
  int reads = 0;
  std::ptrdiff_t at = -1;  // where its tape starts in the list's
};
}  // namespace

TEST_CASE("a lazy list finds where its parts lie on the first lookup and reads each part once, on its own first use") {
  static int splits = 0, reads = 0;  // plain function pointers, as the tables' are
  static const std::array<std::uint8_t, 3> ints{};
  splits = reads = 0;
  const KnowledgeTape region{ints, {}, {}};
  auto split = +[](const KnowledgeTape&, std::span<PartSpan> parts) {
    ++splits;
    for (std::size_t i = 0; i < parts.size(); ++i) parts[i] = PartSpan{.ints = static_cast<std::uint32_t>(i), .intCount = 1};
    return true;
  };
  auto read = +[](const KnowledgeTape& tape, Located& value, KnowledgeNodes&) {
    ++reads;
    ++value.reads;
    value.at = tape.ints.data() - ints.data();
    return true;
  };
  LazyParts<Located> list;
  list.defer(3, region, read, split);
  CHECK(list.size() == 3);
  CHECK(splits == 0);  // deferred: nothing split or read yet
  CHECK(list[1].at == 1);
  CHECK(list[1].reads == 1);
  CHECK(list[0].at == 0);
  CHECK((splits == 1 && reads == 2));  // split once; only the parts asked for are read
  CHECK(list.load(2));
  CHECK(list[2].at == 2);
  CHECK(reads == 3);

  // Eight threads at once on a fresh list: each part is read once, the list split once.
  splits = reads = 0;
  LazyParts<Located> shared;
  shared.defer(3, region, read, split);
  std::array<int, 8> seen{};
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < seen.size(); ++t) threads.emplace_back([&shared, &seen, t] { seen[t] = shared[t % 3].reads; });
  for (auto& t : threads) t.join();
  for (int s : seen) CHECK(s == 1);
  CHECK((splits == 1 && reads == 3));

  // Parts that do not fill the list's stretch exactly: each reads as empty and says so.
  auto badSplit = +[](const KnowledgeTape&, std::span<PartSpan>) { return false; };
  LazyParts<Located> stale;
  stale.defer(2, region, read, badSplit);
  CHECK_FALSE(stale.load(0));
  CHECK(stale[1].at == 0);
}

TEST_CASE("every GPU name and alias is one card's, once normalised, and finds that card however it is spelt") {
  const GpuCatalog& gpus = knowledge().gpus;
  std::map<std::string, std::string> owner;  // normalised name -> the card
  for (const Gpu& gpu : gpus.all()) {
    std::vector<std::string> names = {std::string(gpu.name)};
    for (const auto alias : gpu.aliases) names.emplace_back(alias);
    for (const std::string& name : names) {
      INFO(name);
      const auto [at, fresh] = owner.emplace(normalizeGpuName(name), std::string(gpu.name));
      CHECK((fresh || at->second == gpu.name));
      REQUIRE(gpus.find(name) == &gpu);
      std::string shouted = name;
      for (char& c : shouted) c = asciiUpper(c);
      CHECK(gpus.find(shouted) == &gpu);
    }
  }
}
