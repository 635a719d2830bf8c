// The log fixtures (tests/fixtures/logs/, one per message format and phase) against their labels, and the unseen
// log corpora against their final scores.
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

// The unseen log corpora (tests/logs-unseen*, measured before any fix and kept as measurement sets: docs/accuracy.md
// has their unseen and final scores): a change to the log reader may not lose what their final scores hold. At least
// the final OOM, kind, phase, step, figures and UI counts (unseen-7 020's OOM is in the report's prose alone).
TEST_CASE("the unseen log corpora keep their final scores") {
  struct Floor {
    const char* dir;
    int oom, kind, phase, step, numbers, tool;
  };
  for (const Floor f : {Floor{"tests/logs-unseen", 50, 50, 47, 49, 50, 43}, Floor{"tests/logs-unseen-3", 35, 35, 30, 35, 33, 33},
                        Floor{"tests/logs-unseen-4", 40, 39, 32, 39, 40, 38}, Floor{"tests/logs-unseen-5", 40, 40, 32, 40, 40, 36},
                        Floor{"tests/logs-unseen-6", 25, 25, 20, 23, 25, 24}, Floor{"tests/logs-unseen-7", 29, 29, 25, 29, 30, 24},
                        Floor{"tests/logs-unseen-8", 32, 32, 25, 31, 32, 29}, Floor{"tests/logs-unseen-9", 9, 9, 9, 9, 9, 8}}) {
    DYNAMIC_SECTION(f.dir) {
      const auto dir = test::sourceDir() / f.dir;
      auto manifest = readDocument(test::readFile(dir / "manifest.yaml"));
      REQUIRE_FALSE(manifest->fatal());
      int oom = 0, kind = 0, phase = 0, step = 0, numbers = 0, tool = 0;
      for (const Node* item : manifest->root()->resolved()->items) {
        const std::string file = item->find("file")->resolved()->text;
        const LabelComparison c = compareWithLabel(analyzeLog(test::readFile(dir / file)), item);
        INFO(file << " got/expected:" << c.differences);
        CHECK(c.labelError == "");
        oom += c.oom;
        kind += c.kind;
        phase += c.phase;
        step += c.step;
        numbers += c.numbers;
        tool += c.tool;
      }
      CHECK(oom >= f.oom);
      CHECK(kind >= f.kind);
      CHECK(phase >= f.phase);
      CHECK(step >= f.step);
      CHECK(numbers >= f.numbers);
      CHECK(tool >= f.tool);
    }
  }
}
