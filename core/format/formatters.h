// Renderers of a Report. Pure functions from the Report to text: the CLI writes what they return,
// the WASM module hands it to JavaScript.
#pragma once

#include <string>

#include "report/report.h"

namespace oomlint {

struct TextStyle {
  bool color = false;
};

// Human output: `file:line:col: severity: message [CODE name]`, the source line, and an underline
// under the exact range (actionlint/Ruff style), then a summary line.
std::string formatText(const Report& report, const TextStyle& style = {});

// The JSON contract of DESIGN.md ("--format json"): one object, nothing else.
std::string formatJson(const Report& report);

// `file:line:col: severity: message [CODE name]` per finding, the estimate as a file-level note.
std::string formatGcc(const Report& report);

// SARIF 2.1.0: one run, the rules that fired with their help pages, results with exact regions and
// the key path as a logical location, fixes where a finding has one, the estimate in run properties.
std::string formatSarif(const Report& report);

// JUnit XML: a test suite per run, a test case per file, a failure per finding.
std::string formatJunit(const Report& report);

// GitHub Actions workflow commands (::error file=…,line=…::message), escaped, most severe first,
// capped at GitHub's 10 annotations per level, then the estimate and a count of what was left out.
std::string formatGithub(const Report& report);

}  // namespace oomlint
