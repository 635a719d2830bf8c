// The field sets (tests/field, tests/field-comfyui) are data the scorers read: a case file that no longer
// parses, a label outside the format, or a config that went missing silently drops cases from the scores.
// These tests hold every case file to the format tests/field/README.md states, read by the same reader
// oomlint reads configs with (PyYAML's typing), and every rebuilt config and workflow to being readable.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "test_support.h"

using namespace oomlint;

namespace {

namespace fs = std::filesystem;

// The document of a case file, failing the test with the reader's first problem and its position.
std::unique_ptr<Document> readCaseFile(const fs::path& path) {
  auto doc = readDocument(test::readFile(path));
  for (const auto& p : doc->problems()) {
    FAIL_CHECK(path.filename().string() << ":" << p.range.start.line << ":" << p.range.start.column << ": " << p.message);
  }
  return doc;
}

bool isOneOf(const std::string& value, std::initializer_list<const char*> allowed) {
  for (const char* a : allowed) {
    if (value == a) return true;
  }
  return false;
}

// A referenced file (config, workflow, native command line) exists and reads without a fatal problem.
void checkReadable(const fs::path& path) {
  INFO(path.string());
  REQUIRE(fs::is_regular_file(path));
  const auto text = test::readFile(path);
  const bool toml = path.extension() == ".toml";
  const bool script = path.extension() == ".sh";
  if (script) return;  // a command line: the trainer's system reads it; existing is what the scorer needs
  const auto doc = toml ? readTomlDocument(text) : readDocument(text);
  CHECK_FALSE(doc->fatal());
}

// The case files of a field set (cases.yaml, cases-batchN.yaml), in name order.
std::vector<fs::path> caseFiles(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const auto name = entry.path().filename().string();
    if (name.rfind("cases", 0) == 0 && entry.path().extension() == ".yaml") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The labels every case of either set carries: its outcome, the card's size and a faithfulness grade.
void checkLabel(const Node* item) {
  const std::string outcome = scalarText(item, "outcome");
  CHECK(isOneOf(outcome, {"oom", "fits", "peak"}));
  const Node* vram = item->find("gpu_vram_gib");
  CHECK((vram && vram->isNumber() && vram->number() > 0));
  if (outcome == "peak") {
    const Node* peak = item->find("peak_gib");
    CHECK((peak && peak->isNumber() && peak->number() > 0));
  }
  CHECK(isOneOf(scalarText(item, "faithfulness"), {"A", "B", "C"}));
}

}  // namespace

TEST_CASE("every field case file holds well-formed, uniquely named cases") {
  const auto dir = test::sourceDir() / "tests/field";
  std::set<std::string> ids;
  const auto files = caseFiles(dir);
  for (const auto& path : files) {
    const auto name = path.filename().string();
    INFO(name);
    const auto doc = readCaseFile(path);
    REQUIRE(doc->root());
    REQUIRE(doc->root()->isSequence());
    for (const Node* item : doc->root()->resolved()->items) {
      REQUIRE(item->isMapping());
      const std::string id = scalarText(item, "id");
      INFO(name << ":" << item->range.start.line << ": case " << id);
      REQUIRE_FALSE(id.empty());
      CHECK(ids.insert(id).second);
      checkLabel(item);
      const Node* mapped = item->find("mapped");
      CHECK((mapped && mapped->isScalar() && mapped->resolved()->type == ScalarType::Bool));
      if (item->find("failure_cause")) {
        CHECK(isOneOf(scalarText(item, "failure_cause"), {"gpu_state", "regression", "host_ram"}));
      }
      CHECK_FALSE(scalarText(item, "source").empty());
      // Every case has an AI Toolkit config, a trainer's own form (native_config), or both.
      const auto natives = scalarTexts(item->find("native_config"));
      if (item->find("config") || natives.empty()) checkReadable(dir / scalarText(item, "config"));
      if (!item->find("config")) CHECK((mapped && mapped->resolved()->boolValue));  // a native-only job ran in another trainer
      for (const auto& native : natives) checkReadable(dir / native);
    }
  }
  CHECK(files.size() >= 8);
  CHECK(ids.size() >= 100);
}

TEST_CASE("the ComfyUI field sets: every labelled case rebuilt as a readable workflow") {
  const auto dir = test::sourceDir() / "tests/field-comfyui";
  std::set<std::string> labelled;
  const auto batches = caseFiles(dir);
  // cases.yaml with rebuilt.yaml, cases-batchN.yaml with rebuilt-batchN.yaml.
  for (const auto& path : batches) {
    const auto name = path.filename().string();
    INFO(name);
    const auto cases = readCaseFile(path);
    const auto rebuilt = readCaseFile(dir / ("rebuilt" + name.substr(5)));
    REQUIRE((cases->root() && cases->root()->isMapping()));
    const Node* list = cases->root()->find("cases");
    REQUIRE((list && list->isSequence()));
    std::set<std::string> here;
    for (const Node* item : list->resolved()->items) {
      const std::string id = scalarText(item, "id");
      INFO(name << ":" << item->range.start.line << ": case " << id);
      CHECK(labelled.insert(id).second);
      here.insert(id);
      checkLabel(item);
    }
    REQUIRE((rebuilt->root() && rebuilt->root()->isSequence()));
    std::set<std::string> built;
    for (const Node* item : rebuilt->root()->resolved()->items) {
      const std::string id = scalarText(item, "id");
      INFO("rebuilt:" << item->range.start.line << ": case " << id);
      CHECK(here.count(id) == 1);  // no rebuild without a label written before it, in its batch
      CHECK(built.insert(id).second);
      checkReadable(dir / scalarText(item, "workflow"));
    }
  }
  CHECK(batches.size() >= 2);
  CHECK(labelled.size() >= 30);
}
