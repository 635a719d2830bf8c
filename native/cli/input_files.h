// Reads the inputs named on the command line, never more than a bounded number of bytes each.
#pragma once

#include <optional>
#include <string>
#include <variant>

#include "analyze.h"
#include "systems/logs/log_analysis.h"

namespace oomlint::cli {

struct ReadFailure {
  std::string path;
  std::string reason;
};

// A console log, streamed through the core's scanner in chunks: memory stays bounded whatever its size.
std::variant<LogAnalysis, ReadFailure> scanLog(const std::string& path);

// Reads at most `maxBytes + 1` bytes, so an oversized file is reported by the core (OL103)
// without ever being held in memory whole.
std::variant<Input, ReadFailure> readInput(const std::string& path, std::size_t maxBytes);

// One pass over the file: a log (its first 64 KiB decide; stdin is never one here) streamed whole through the
// scanner, or else a config read as readInput reads it.
std::variant<Input, LogAnalysis, ReadFailure> readConfigOrLog(const std::string& path, std::size_t maxBytes);

}  // namespace oomlint::cli
