// The log fixtures (tests/fixtures/logs/, one per message format and phase) against their labels.
#include <catch2/catch.hpp>

#include "base/document/reader.h"
#include "systems/logs/labels.h"
#include "test_support.h"

using namespace oomlint;

TEST_CASE("every log fixture is analysed exactly as labelled") {
  const auto dir = test::sourceDir() / "tests/fixtures/logs";
  auto manifest = readDocument(test::readFile(dir / "manifest.yaml"));
  REQUIRE_FALSE(manifest->fatal());
  REQUIRE(manifest->root()->isSequence());
  const auto& items = manifest->root()->resolved()->items;
  REQUIRE(items.size() >= 20);
  for (const Node* item : items) {
    const std::string file = item->find("file")->resolved()->text;
    DYNAMIC_SECTION(file) {
      const LabelComparison c = compareWithLabel(analyzeLog(test::readFile(dir / file)), item);
      INFO("got/expected:" << c.differences);
      CHECK(c.labelError == "");
      CHECK(c.all());
    }
  }
}

TEST_CASE("a label whose phase is not a phase id is an error of the label, not a miss") {
  auto label = readDocument("oom: true\nkind: cuda_alloc\nphase: train-step\n");
  const LabelComparison c = compareWithLabel(analyzeLog("torch.OutOfMemoryError: CUDA out of memory.\n"), label->root());
  CHECK_THAT(c.labelError, Catch::Contains("`train-step` is not a phase id"));
  CHECK_FALSE(c.all());
}
