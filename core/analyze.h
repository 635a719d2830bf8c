// The core's single entry point: inputs (text) in, a Report out. No I/O, no exceptions escape.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "document/limits.h"
#include "report/report.h"

namespace oomlint {

struct Input {
  std::string path;  // as the user named it ("-" for stdin); only echoed back
  std::string text;
};

struct AnalyzeOptions {
  ReadLimits limits;
};

FileReport analyzeInput(const Input& input, const AnalyzeOptions& options = {});
Report analyze(const std::vector<Input>& inputs, const AnalyzeOptions& options = {});

}  // namespace oomlint
