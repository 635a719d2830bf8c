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
      CHECK(c.all());
    }
  }
}
