// Runs every fixture under tests/fixtures and compares what oomlint reports with the expectations
// written in the fixture itself or its `.expect` sidecar (syntax: tests/fixtures/README.md; parser and
// comparison: fixture_expectations.cpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "base/document/reader.h"
#include "engine/edits.h"
#include "fixture_expectations.h"
#include "test_support.h"

using namespace oomlint;

namespace {

// `# fixture-gpu: RTX 3090` or `# fixture-vram: 24` names the card the estimate findings are for;
// `# fixture-ram: 32` the machine's RAM, for the host-RAM findings;
// `# fixture-log: ../diagnosis/x.log` attaches a log, as --log does; `# fixture-project: {…}` is a
// project file (.oomlint.yaml) in flow style.
AnalyzeOptions optionsFor(const std::string& text, const std::filesystem::path& file) {
  AnalyzeOptions options;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    auto valueOf = [&](std::string_view directive) -> std::optional<std::string> {
      const auto at = line.find(directive);
      if (at == std::string::npos) return std::nullopt;
      std::string value = line.substr(at + directive.size());
      value.erase(0, value.find_first_not_of(' '));
      return value;
    };
    if (const auto gpu = valueOf("# fixture-gpu:")) {
      options.gpu = *gpu;
    } else if (const auto vram = valueOf("# fixture-vram:")) {
      options.vramGib = std::stod(*vram);
    } else if (const auto ram = valueOf("# fixture-ram:")) {
      options.ramGib = std::stod(*ram);
    } else if (const auto projectText = valueOf("# fixture-project:")) {
      auto project = parseProjectConfig(*projectText);
      REQUIRE(project.problems.empty());
      options.policy = project.config.base;
    } else if (const auto log = valueOf("# fixture-log:")) {
      options.attachedLog = analyzeLog(test::readFile(file.parent_path() / *log));
    }
  }
  return options;
}

std::string lines(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += "  " + item + "\n";
  return out;
}

}  // namespace

TEST_CASE("every file under tests/fixtures is a fixture that some test runs") {
  const auto root = test::sourceDir() / "tests/fixtures";
  const auto inputs = test::fixtureInputs(root);
  std::vector<std::string> notRun;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file()) continue;
    const auto& path = entry.path();
    const std::string relative = std::filesystem::relative(path, root).generic_string();
    const std::string folder = relative.substr(0, relative.find('/'));
    if (path.extension() == ".expect") {
      // A sidecar belongs to an input the runner reads.
      const std::filesystem::path input = path.string().substr(0, path.string().size() - 7);
      if (std::find(inputs.begin(), inputs.end(), input) == inputs.end()) notRun.push_back(relative + " (a sidecar without its input)");
    } else if (relative == "README.md" || folder == "fuzz") {
      // The syntax, and the fuzz regressions (scripts/fuzz.sh --smoke replays them; the golden test reports them).
    } else if (folder == "logs") {
      // The log fixtures: logs/manifest.yaml must label each (log_fixture_test.cpp checks that).
      if (path.extension() != ".log" && relative != "logs/manifest.yaml") notRun.push_back(relative + " (not a .log)");
    } else if (std::find(inputs.begin(), inputs.end(), path) == inputs.end()) {
      notRun.push_back(relative + " (neither YAML nor JSON, and no .expect sidecar)");
    }
  }
  INFO("files the fixture runner skips:\n" << lines(notRun));
  CHECK(notRun.empty());
  // The folders the README describes are all there, and none is empty.
  for (const char* folder : {"rules", "webui", "comfyui", "input", "clean", "diagnosis"}) {
    INFO(folder);
    CHECK(std::any_of(inputs.begin(), inputs.end(), [&](const auto& p) {
      return std::filesystem::relative(p, root).begin()->string() == folder;
    }));
  }
}

TEST_CASE("fixtures report exactly the diagnostics they annotate") {
  const auto root = test::sourceDir() / "tests/fixtures";
  for (const auto& file : test::fixtureInputs(root)) {
    const std::string name = std::filesystem::relative(file, root).generic_string();
    DYNAMIC_SECTION(name) {
      const std::string text = test::readFile(file);
      const test::Expectations expected = test::expectationsOf(file, root);
      const FileReport report = analyzeInput(Input{file.filename().string(), text}, optionsFor(text, file));
      const auto problems = test::compareWithExpectations(text, report.diagnostics, expected, name);
      INFO(name << ":\n" << lines(problems));
      CHECK(problems.empty());
    }
  }
}

TEST_CASE("the expectation syntax: what a fixture may write, and what is refused") {
  using test::parseCommentExpectations;
  const auto ok = parseCommentExpectations(
      "train:\n"
      "  batch_size: 0  # expect: OL202:15 \"below \\\"its\\\" minimum\" OL406:3 \"grid\"  # expect-fix OL202: batch_size: 1\n"
      "  # expect-next-line: OL101:9 \"unclosed\"  # a note\n"
      "\n"
      "  # a comment between\n"
      "  name: \"x\n",
      "f.yaml");
  REQUIRE(ok.errors.empty());
  REQUIRE(ok.items.size() == 3);
  CHECK(ok.items[0].line == 2);
  CHECK(ok.items[0].code == "OL202");
  CHECK(ok.items[0].column == 15);
  CHECK(ok.items[0].message == "below \"its\" minimum");
  CHECK(ok.items[0].fix == "batch_size: 1");
  CHECK(ok.items[0].where == "f.yaml:2");
  CHECK_FALSE(ok.items[1].fix);
  CHECK(ok.items[2].line == 6);
  CHECK(ok.items[2].where == "f.yaml:3");

  const auto sidecar = test::parseSidecarExpectations("# a comment\n87: OL104:5 \"twice\"  # expect-fix: \"lr\": 1\n", "x.json.expect");
  REQUIRE(sidecar.errors.empty());
  REQUIRE(sidecar.items.size() == 1);
  CHECK(sidecar.items[0].line == 87);
  CHECK(sidecar.items[0].fix == "\"lr\": 1");

  for (const char* bad : {"a: 1  # expect: OL202\n", "a: 1  # expect: OL202:3\n", "a: 1  # expect: OL202:3 \"open\n",
                          "a: 1  # expect: OL2:3 \"x\"\n", "# expect: OL202:1 \"x\"\na: 1\n", "a: 1  # expect:\n",
                          "a: 1  # expect: OL202:3 \"x\" OL203:3 \"y\"  # expect-fix: a: 2\n", "a: 1  # expected: OL202:1 \"x\"\n",
                          "a: 1\n# expect-next-line: OL202:1 \"x\"\n"}) {
    INFO(bad);
    CHECK(parseCommentExpectations(bad, "f.yaml").errors.size() == 1);
  }
}

TEST_CASE("the fixture comparison fails on a wrong column, message or fix, and says where and why") {
  const std::string text = "job: extension\nconfig:\n  process:\n    - type: sd_trainer\n      train:\n        batch_size: 0\n";
  Diagnostic d;
  d.code = RuleId::OL202;
  d.message = "batch_size 0 is below its minimum 1";
  d.range.start = {6, 21, 0};
  d.fix = Fix{KeyPath::of({"config", "process"}).item(0).key("train").key("batch_size"), "0", "1"};
  placeFix(*readDocument(text), *d.fix);
  auto compare = [&](const std::string& expectation) {
    return test::compareWithExpectations(text, {d}, test::parseSidecarExpectations("6: " + expectation, "f.expect"), "f.yaml");
  };
  CHECK(compare("OL202:21 \"below its minimum\"  # expect-fix: batch_size: 1").empty());
  auto one = [](const std::vector<std::string>& problems, const std::string& needle) {
    INFO(lines(problems));
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].rfind("f.expect:1: ", 0) == 0);
    CHECK(problems[0].find(needle) != std::string::npos);
  };
  one(compare("OL202:21 \"above\"  # expect-fix: batch_size: 1"), "the message does not contain \"above\"");
  one(compare("OL202:21 \"below\"  # expect-fix: batch_size: 2"), "fix gives `batch_size: 1`, expected `batch_size: 2`");
  one(compare("OL202:21 \"below\""), "carries a fix");
  const auto wrongColumn = compare("OL202:20 \"below\"  # expect-fix: batch_size: 1");
  REQUIRE(wrongColumn.size() == 2);  // the expectation is not met, and the diagnostic is unexpected
  CHECK(wrongColumn[0].find("expected OL202:20 \"below\" at line 6, not reported; at this line is OL202:21") != std::string::npos);
  CHECK(wrongColumn[1] == "f.yaml:6: unexpected OL202:21 \"batch_size 0 is below its minimum 1\"");
}

// Not run by default (`oomlint_tests "[.print]"`): every fixture's diagnostics as they are now, one per line,
// tab-separated (file, line, code, column, message, fixed text) — a start for a new fixture's expectations.
TEST_CASE("print the diagnostics of every fixture", "[.print]") {
  const auto root = test::sourceDir() / "tests/fixtures";
  for (const auto& file : test::fixtureInputs(root)) {
    const std::string text = test::readFile(file);
    const FileReport report = analyzeInput(Input{file.filename().string(), text}, optionsFor(text, file));
    for (const auto& d : report.diagnostics) {
      std::string fixed, why;
      if (d.fix) fixed = test::fixedText(text, *d.fix, &why).value_or("(cannot apply: " + why + ")");
      for (auto& c : fixed) c = c == '\n' ? '\x1f' : c;
      std::cout << std::filesystem::relative(file, root).generic_string() << '\t' << d.range.start.line << '\t' << d.code << '\t'
                << d.range.start.column << '\t' << d.message << '\t' << (d.fix ? "fix:" + fixed : "") << '\n';
    }
  }
}
