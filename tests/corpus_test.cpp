// AI Toolkit's own example configs (../shared/corpus) must load without an error-severity finding;
// the one that is invalid upstream must get exactly one syntax error, at its real line.
#include <catch2/catch.hpp>

#include <filesystem>

#include "test_support.h"

using namespace oomlint;

TEST_CASE("AI Toolkit's example configs") {
  const auto dir = test::sharedDir() / "corpus/ai-toolkit/examples";
  if (!std::filesystem::is_directory(dir)) {
    WARN("skipped: " << dir.string() << " is absent (the shared corpus sits beside the clone in CI)");
    return;
  }
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
