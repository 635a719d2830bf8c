// AI Toolkit's own example configs (../shared/corpus) must load without an error-severity finding;
// the one that is invalid upstream must get exactly one syntax error, at its real line.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <regex>

#include "test_support.h"

using namespace oomlint;

// Every case here reads ../shared: tagged [shared], so that ctest reports them skipped where it is missing
// (tests/main.cpp).
TEST_CASE("AI Toolkit's example configs", "[shared]") {
  OOMLINT_REQUIRE_SHARED();
  const auto dir = test::sharedDir() / "corpus/ai-toolkit/examples";
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const auto name = entry.path().filename().string();
    DYNAMIC_SECTION(name) {
      const FileReport report = analyzeInput(Input{name, test::readFile(entry.path())});
      if (name == "train_lora_omnigen2_24gb.yaml") {
        REQUIRE(report.diagnostics.size() == 1);
        const auto& d = report.diagnostics.front();
        CHECK(d.code == "OL101");
        CHECK(d.severity == Severity::Error);
        CHECK(d.range.start.line == 64);  // `name_or_path: "OmniGen2/OmniGen2` opens a quote it never closes
        CHECK(report.unreadable);
      } else {
        for (const auto& d : report.diagnostics) {
          INFO(d.range.start.line << ": " << d.code << " " << d.message);
          CHECK(d.severity != Severity::Error);
        }
        CHECK_FALSE(report.unreadable);
      }
    }
    ++checked;
  }
  CHECK(checked >= 20);
}

// Each training example gets an estimate, and one named for a card size (_24gb, _32gb, _48) fits it.
TEST_CASE("AI Toolkit's example configs fit the card their name promises", "[shared]") {
  OOMLINT_REQUIRE_SHARED();
  const auto dir = test::sharedDir() / "corpus/ai-toolkit/examples";
  const std::regex sized("_(\\d+)(gb)?\\.ya?ml$");
  int sizedChecked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const auto name = entry.path().filename().string();
    const std::string text = test::readFile(entry.path());
    // Not trainers of the SD trainer family: extract/generate/mod jobs and the legacy slider; and the
    // upstream file that is not valid YAML.
    if (text.find("job: extension") == std::string::npos || name == "train_lora_omnigen2_24gb.yaml") continue;
    AnalyzeOptions options;
    std::smatch match;
    if (std::regex_search(name, match, sized)) {
      options.vramGib = std::stod(match[1]);
      ++sizedChecked;  // counted outside the section: Catch runs one section per pass
    }
    DYNAMIC_SECTION(name) {
      const FileReport report = analyzeInput(Input{name, text}, options);
      REQUIRE(report.estimate.has_value());
      if (options.vramGib) {
        const auto& peak = report.estimate->peak();
        INFO(toString(peak.phase) << " " << peak.peakBytes / (1 << 30) << " GiB, high " << report.estimate->highBytes / (1 << 30));
        // Wan 2.1 14B's promise held on the torch it was written for; on the torch 2.9.1 AI Toolkit installed in 2026's first
        // half its untiled sampling decode ran out of memory (ostris/ai-toolkit#819): the range's high end says so.
        CHECK(report.estimate->verdict == (name == "train_lora_wan21_14b_24gb.yaml" ? Verdict::Borderline : Verdict::Fits));
      }
    }
  }
  CHECK(sizedChecked >= 15);
}

// Issue #3's acceptance: one setting flipped in the FLUX 24 GB example turns it into an OOM on 24 GB, the
// plan marks that change needed, and writing the needed steps back (oomlint fix) makes it fit again.
TEST_CASE("one flipped setting in the FLUX 24 GB example, and fix undoes it", "[shared]") {
  OOMLINT_REQUIRE_SHARED();
  const auto file = test::sharedDir() / "corpus/ai-toolkit/examples/train_lora_flux_24gb.yaml";
  REQUIRE(std::filesystem::exists(file));
  const std::string original = test::readFile(file);
  struct Flip {
    std::string from, to, path;
  };
  const Flip flips[] = {
      {"quantize: true", "quantize: false", "config.process[0].model.quantize"},
      {"gradient_checkpointing: true", "gradient_checkpointing: false", "config.process[0].train.gradient_checkpointing"},
      {"batch_size: 1", "batch_size: 8", "config.process[0].train.batch_size"},
  };
  AnalyzeOptions card;
  card.vramGib = 24;
  for (const auto& flip : flips) {
    DYNAMIC_SECTION(flip.to) {
      std::string text = original;
      const auto at = text.find(flip.from);
      REQUIRE(at != std::string::npos);
      text.replace(at, flip.from.size(), flip.to);
      const FileReport report = analyzeInput(Input{"flux.yaml", text}, card);
      REQUIRE(report.estimate);
      CHECK(report.estimate->verdict == Verdict::Oom);
      const bool flippedIsNeeded = std::any_of(report.plan.begin(), report.plan.end(),
                                               [&](const PlanStep& s) { return s.needed && s.fix.path.toString() == flip.path; });
      CHECK(flippedIsNeeded);
      const FixResult fixed = fixConfig(Input{"flux.yaml", text}, card);
      const FileReport after = analyzeInput(Input{"flux.yaml", fixed.text}, card);
      REQUIRE(after.estimate);
      CHECK(after.estimate->verdict == Verdict::Fits);
    }
  }
}

// OneTrainer's built-in presets are OneTrainer's, not AI Toolkit jobs: each gets the one finding that says so, at its
// `training_method`, and none of the AI Toolkit schema's (a preset once read as a job had two missing-key errors and
// an unknown key per line).
TEST_CASE("OneTrainer's presets are named as OneTrainer configs", "[shared]") {
  OOMLINT_REQUIRE_SHARED();
  int checked = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(test::sharedDir() / "corpus/onetrainer/training_presets")) {
    if (entry.path().extension() != ".json") continue;
    const std::string text = test::readFile(entry.path());
    DYNAMIC_SECTION(entry.path().filename().string()) {
      const FileReport report = analyzeInput(Input{entry.path().filename().string(), text});
      CHECK(report.kind == InputKind::OtherTrainer);
      CHECK(report.unreadable);
      CHECK_FALSE(report.estimate);
      REQUIRE(report.diagnostics.size() == 1);
      const auto& d = report.diagnostics.front();
      CHECK(d.code == "OL110");
      CHECK(d.message.find("OneTrainer") != std::string::npos);
      const std::size_t at = text.find("\"training_method\"");
      REQUIRE(at != std::string::npos);
      CHECK(d.range.start.line == 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n')));
    }
    ++checked;
  }
  CHECK(checked == 60);  // every built-in preset (../shared/corpus/onetrainer/README.md)
}
