// Runs every fixture under tests/fixtures and compares what oomlint reports with the
// expectations written in the fixture itself (see tests/fixtures/README.md).
#include <catch2/catch.hpp>

#include <filesystem>
#include <algorithm>
#include <set>
#include <sstream>

#include "test_support.h"

using namespace oomlint;

namespace {

struct Expected {
  int line;
  std::string code;
  int column;  // 0 = any
  auto operator<=>(const Expected&) const = default;
};

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::string line;
  std::istringstream in(text);
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

void addCodes(std::multiset<Expected>& out, int line, const std::string& list) {
  std::istringstream words(list);
  std::string word;
  while (words >> word) {
    const auto colon = word.find(':');
    out.insert({line, word.substr(0, colon), colon == std::string::npos ? 0 : std::stoi(word.substr(colon + 1))});
  }
}

bool isBlankOrComment(const std::string& line) {
  const auto first = line.find_first_not_of(" \t");
  return first == std::string::npos || line[first] == '#';
}

std::multiset<Expected> yamlExpectations(const std::string& text) {
  std::multiset<Expected> out;
  const auto lines = splitLines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    const int number = static_cast<int>(i) + 1;
    if (auto at = line.find("# expect-next-line:"); at != std::string::npos) {
      std::size_t next = i + 1;
      while (next < lines.size() && isBlankOrComment(lines[next])) ++next;
      addCodes(out, static_cast<int>(next) + 1, line.substr(at + 19));
    } else if (auto at2 = line.find("# expect:"); at2 != std::string::npos) {
      REQUIRE_FALSE(line.substr(0, at2).find_first_not_of(" \t") == std::string::npos);  // must trail content
      addCodes(out, number, line.substr(at2 + 9));
    }
  }
  return out;
}

std::multiset<Expected> jsonExpectations(const std::filesystem::path& expectFile) {
  std::multiset<Expected> out;
  for (const auto& line : splitLines(test::readFile(expectFile))) {
    const std::string content = line.substr(0, line.find('#'));
    const auto colon = content.find(':');
    if (colon == std::string::npos) continue;
    addCodes(out, std::stoi(content.substr(0, colon)), content.substr(colon + 1));
  }
  return out;
}

// `# fixture-gpu: RTX 3090` or `# fixture-vram: 24` names the card the estimate findings are for;
// `# fixture-log: ../diagnosis/x.log` attaches a log, as --log does; `# fixture-project: {…}` is a
// project file (.oomlint.yaml) in flow style.
AnalyzeOptions optionsFor(const std::string& text, const std::filesystem::path& file) {
  AnalyzeOptions options;
  for (const auto& line : splitLines(text)) {
    if (auto at = line.find("# fixture-gpu:"); at != std::string::npos) {
      std::string name = line.substr(at + 14);
      name.erase(0, name.find_first_not_of(' '));
      options.gpu = name;
    } else if (auto at2 = line.find("# fixture-vram:"); at2 != std::string::npos) {
      options.vramGib = std::stod(line.substr(at2 + 15));
    } else if (auto at4 = line.find("# fixture-project:"); at4 != std::string::npos) {
      auto project = parseProjectConfig(line.substr(at4 + 18));
      REQUIRE(project.problems.empty());
      options.policy = project.config.base;
    } else if (auto at3 = line.find("# fixture-log:"); at3 != std::string::npos) {
      std::string name = line.substr(at3 + 14);
      name.erase(0, name.find_first_not_of(' '));
      options.attachedLog = analyzeLog(test::readFile(file.parent_path() / name));
    }
  }
  return options;
}

std::string describe(const std::multiset<Expected>& set) {
  std::string out;
  for (const auto& e : set) out += "  line " + std::to_string(e.line) + ": " + e.code + (e.column ? ":" + std::to_string(e.column) : "") + "\n";
  return out.empty() ? "  (none)\n" : out;
}

}  // namespace

TEST_CASE("fixtures report exactly the diagnostics they annotate") {
  const auto root = test::sourceDir() / "tests/fixtures";
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    const auto ext = entry.path().extension();
    // Inputs that cannot carry comments where it matters (logs, launch lines, parameters blocks) say
    // what they expect in a sidecar `name.ext.expect`.
    const bool withSidecar = ext != ".expect" && std::filesystem::exists(entry.path().string() + ".expect");
    if (entry.path().filename() == "manifest.yaml") continue;  // the labels of logs/, checked in log_fixture_test.cpp
    if (entry.is_regular_file() && (ext == ".yaml" || ext == ".yml" || ext == ".json" || withSidecar)) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 10);
  for (const auto& file : files) {
    DYNAMIC_SECTION(std::filesystem::relative(file, root).string()) {
      const std::string text = test::readFile(file);
      const bool sidecar = file.extension() == ".json" || std::filesystem::exists(file.string() + ".expect");
      const auto expected = sidecar ? jsonExpectations(file.string() + ".expect") : yamlExpectations(text);
      const FileReport report = analyzeInput(Input{file.filename().string(), text}, optionsFor(text, file));
      std::multiset<Expected> actual;
      std::string messages;
      for (const auto& d : report.diagnostics) {
        actual.insert({d.range.start.line, d.code, 0});
        messages += "  " + std::to_string(d.range.start.line) + ":" + std::to_string(d.range.start.column) + " " + d.code +
                    " " + d.message + "\n";
      }
      // Pinned columns are compared separately, so the sets compare on (line, code).
      std::multiset<Expected> expectedLoose;
      for (auto e : expected) {
        if (e.column) {
          const bool found = std::any_of(report.diagnostics.begin(), report.diagnostics.end(), [&](const Diagnostic& d) {
            return d.code == e.code && d.range.start.line == e.line && d.range.start.column == e.column;
          });
          INFO(e.code << " expected at " << e.line << ":" << e.column << "\nreported:\n" << messages);
          CHECK(found);
        }
        e.column = 0;
        expectedLoose.insert(e);
      }
      INFO("expected:\n" << describe(expectedLoose) << "reported:\n" << messages);
      CHECK(actual == expectedLoose);
    }
  }
}
