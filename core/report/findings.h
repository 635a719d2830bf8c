// Where checks put what they find. Severity defaults to the catalog's for the code.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/text/json_writer.h"
#include "report/report.h"

namespace oomlint {

class Findings {
 public:
  void report(RuleId code, Range range, KeyPath path, std::string message,
              std::optional<Severity> severity = std::nullopt, std::optional<Fix> fix = std::nullopt);
  std::vector<Diagnostic>& all() { return diagnostics_; }

 private:
  std::vector<Diagnostic> diagnostics_;
};

// `value` as JSON text for a Fix ("4", "true", "\"bf16\""); jsonString (json_writer.h) for a string.
std::string jsonText(const struct Node* value);

}  // namespace oomlint
