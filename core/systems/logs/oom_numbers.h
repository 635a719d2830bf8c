// The figures an out-of-memory message prints ("Tried to allocate 72.00 MiB", "23.55 GiB total
// capacity", …), read as bytes, in every era of PyTorch's wording.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "base/knowledge/logs.h"
#include "report/log_analysis.h"

namespace oomlint {

// "23.55 GiB" at `pos` → bytes (binary units; MPS's "GB"/"MB" are 1024-based too).
std::optional<std::int64_t> sizeAt(std::string_view s, std::size_t pos);
// The size right after `label` ("Tried to allocate 72.00 MiB" → 72 MiB).
std::optional<std::int64_t> sizeAfter(std::string_view s, std::string_view label, std::size_t from = 0);
// The size right before `label` ("23.55 GiB total capacity" → 23.55 GiB).
std::optional<std::int64_t> sizeBefore(std::string_view s, std::string_view label);

// The member of `numbers` that holds `figure`.
std::optional<std::int64_t>& figureOf(OomNumbers& numbers, OomFigure figure);

// Reads the figures of one OOM message of `kind` into `numbers` (those it does not print stay as they are).
void readOomNumbers(std::string_view line, OomKind kind, OomNumbers& numbers);

}  // namespace oomlint
