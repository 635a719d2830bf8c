// The expectations a fixture under tests/fixtures states (tests/fixtures/README.md has the syntax): read
// by the fixture runner (fixture_test.cpp) and by the rule-coverage check (knowledge_test.cpp), so both
// see the same parsed set rather than a text search.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "report/report.h"

namespace oomlint::test {

struct Expectation {
  int line = 0;         // 1-based line of the input the diagnostic starts on
  std::string code;     // OL202
  int column = 0;       // 1-based start column, in code points
  std::string message;  // a substring of the diagnostic's message
  std::optional<std::string> fix;  // the text of the input's changed line(s) once the diagnostic's fix is applied
  bool fixUnplaced = false;  // the diagnostic carries a fix the edit code cannot write; `fix` is a substring of why
  std::string where;    // where the expectation is written: "rules/x.yaml:12" or "input/y.json.expect:3"
};

struct Expectations {
  std::vector<Expectation> items;
  std::vector<std::string> errors;  // "where: why" for every line that could not be read
};

// `# expect: …` / `# expect-next-line: …` comments of a YAML (or any commented) input. `name` prefixes `where`.
Expectations parseCommentExpectations(const std::string& text, const std::string& name);
// A sidecar `name.ext.expect`: `LINE: CODE:COL "substring" …` per line, `#` lines are comments.
Expectations parseSidecarExpectations(const std::string& text, const std::string& name);

// Every input the fixture runner checks under `root` (tests/fixtures), sorted: YAML and JSON files and any
// file with a `.expect` sidecar; not the sidecars themselves, logs/manifest.yaml or the fuzz regressions.
std::vector<std::filesystem::path> fixtureInputs(const std::filesystem::path& root);
// The expectations of one input: from its sidecar when it has one, else from its comments.
Expectations expectationsOf(const std::filesystem::path& input, const std::filesystem::path& root);

// The text the fix of `d` leaves on the changed lines of `text` (expectation comments and surrounding
// blanks removed, lines joined by "\n"), or nullopt with the reason in `why`.
std::optional<std::string> fixedText(const std::string& text, const Fix& fix, std::string* why);

// Compares a report with the expectations: one line per problem ("where: why"), empty when they agree.
// Each expectation is paired with a diagnostic of its code at its line and column; then the message must
// contain its substring, and its fix (if any) must give its text. A diagnostic with a fix needs an
// expect-fix; an unpaired expectation or diagnostic is a problem.
std::vector<std::string> compareWithExpectations(const std::string& text, const std::vector<Diagnostic>& diagnostics,
                                                 const Expectations& expected, const std::string& name);

}  // namespace oomlint::test
