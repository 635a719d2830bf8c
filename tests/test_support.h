// Shared helpers for the unit tests.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "analyze.h"
#include "common/read_file.h"
#include "base/document/reader.h"

namespace oomlint::test {

inline std::string readFile(const std::filesystem::path& path) { return readWholeFile(path); }

inline std::filesystem::path sourceDir() { return OOMLINT_SOURCE_DIR; }
inline std::filesystem::path sharedDir() { return OOMLINT_SHARED_DIR; }

inline FileReport check(const std::string& text) { return analyzeInput(Input{"test.yaml", text}); }

inline bool hasCode(const FileReport& report, std::string_view code) {
  for (const auto& d : report.diagnostics) {
    if (d.code == code) return true;
  }
  return false;
}

}  // namespace oomlint::test
