// The whole of a file as bytes, for the report tools (calibrate, logscan, bench) and the tests, which
// read trusted project files; the CLI reads user inputs through cli/input_files with its limits.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace oomlint {

inline std::string readWholeFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

}  // namespace oomlint
