// Reads the inputs named on the command line, never more than a bounded number of bytes each.
#pragma once

#include <optional>
#include <string>
#include <variant>

#include "analyze.h"

namespace oomlint::cli {

struct ReadFailure {
  std::string path;
  std::string reason;
};

// Reads at most `maxBytes + 1` bytes, so an oversized file is reported by the core (OL103)
// without ever being held in memory whole.
std::variant<Input, ReadFailure> readInput(const std::string& path, std::size_t maxBytes);

}  // namespace oomlint::cli
