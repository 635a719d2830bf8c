#include "calibration_cases.h"

#include <filesystem>

#include "base/document/reader.h"

namespace oomlint::harness {

std::vector<CalibrationCase> readCalibrationCases(const std::string& text, const std::string& folder, std::string* error) {
  std::vector<CalibrationCase> cases;
  auto doc = readDocument(text);
  if (doc->fatal() || doc->root() == nullptr || !doc->root()->isSequence()) {
    if (error) *error = "the cases file is not a YAML list";
    return cases;
  }
  for (const Node* item : doc->root()->resolved()->items) {
    if (!item->isMapping()) continue;
    CalibrationCase c;
    c.id = scalarText(item, "id");
    const std::string config = scalarText(item, "config");
    if (c.id.empty() || config.empty()) continue;
    c.config = (std::filesystem::path(folder) / config).lexically_normal().string();
    c.gpuGib = numberAt(item, "gpu_vram_gib", 80);
    c.expect = scalarText(item, "expect");
    c.phase = scalarText(item, "phase");
    cases.push_back(std::move(c));
  }
  return cases;
}

}  // namespace oomlint::harness
