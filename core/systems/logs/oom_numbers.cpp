#include "systems/logs/oom_numbers.h"

#include <array>
#include <cmath>
#include <cstdlib>
#include <string>
#include <utility>

#include "systems/logs/line_text.h"

namespace oomlint {

std::optional<std::int64_t> sizeAt(std::string_view s, std::size_t pos) {
  while (pos < s.size() && s[pos] == ' ') ++pos;
  std::size_t end = pos;
  while (end < s.size() && (isAsciiDigit(s[end]) || s[end] == '.')) ++end;
  if (end == pos) return std::nullopt;
  const double value = std::strtod(std::string(s.substr(pos, end - pos)).c_str(), nullptr);
  std::size_t unit = end;
  while (unit < s.size() && s[unit] == ' ') ++unit;
  static const std::array<std::pair<std::string_view, double>, 8> units = {{{"bytes", 1},
                                                                            {"KiB", 1024.0},
                                                                            {"MiB", 1048576.0},
                                                                            {"GiB", 1073741824.0},
                                                                            {"KB", 1024.0},
                                                                            {"MB", 1048576.0},
                                                                            {"GB", 1073741824.0},
                                                                            {"B", 1}}};
  for (const auto& [name, factor] : units) {
    if (s.substr(unit, name.size()) != name) continue;
    // No GPU has an exabyte: an absurd figure is garbage, not a size (and must not overflow).
    const double bytes = value * factor;
    if (!(bytes >= 0 && bytes < 1e18)) return std::nullopt;
    return static_cast<std::int64_t>(std::llround(bytes));
  }
  return std::nullopt;
}

std::optional<std::int64_t> sizeAfter(std::string_view s, std::string_view label, std::size_t from) {
  const std::size_t at = s.find(label, from);
  return at == std::string_view::npos ? std::nullopt : sizeAt(s, at + label.size());
}

namespace {

// A count of bytes printed without a unit ("free: 15663104"); a figure no card has (a wrapped free count near 2^64,
// which overflows digitsAt) is garbage, not a size, as in sizeAt.
std::optional<std::int64_t> bytesAfter(std::string_view s, std::string_view label) {
  const std::size_t at = s.find(label);
  if (at == std::string_view::npos || at + label.size() >= s.size() || !isAsciiDigit(s[at + label.size()])) return std::nullopt;
  const long bytes = digitsAt(s, at + label.size());
  const bool zero = s[at + label.size()] == '0';
  if ((bytes == 0 && !zero) || bytes >= 1e18) return std::nullopt;
  return bytes;
}

}  // namespace

std::optional<std::int64_t> sizeBefore(std::string_view s, std::string_view label) {
  const std::size_t at = s.find(label);
  if (at == std::string_view::npos) return std::nullopt;
  std::size_t start = at;
  int spaces = 0;
  while (start > 0 && spaces < 2) {
    --start;
    if (s[start] == ' ' && start + 1 < at) ++spaces;
    if (s[start] == ';' || s[start] == '(' || s[start] == ',') {
      ++start;
      break;
    }
  }
  return sizeAt(s, start);
}

std::optional<std::int64_t>& figureOf(OomNumbers& n, OomFigure figure) {
  switch (figure) {
    case OomFigure::TriedToAllocate: return n.triedToAllocate;
    case OomFigure::TotalCapacity: return n.totalCapacity;
    case OomFigure::Free: return n.free;
    case OomFigure::AllocatedByPytorch: return n.allocatedByPytorch;
    case OomFigure::ReservedUnallocated: return n.reservedUnallocated;
    case OomFigure::ProcessInUse: return n.processInUse;
  }
  return n.free;
}

void readOomNumbers(std::string_view line, OomKind kind, OomNumbers& n) {
  if (auto v = sizeAfter(line, "Tried to allocate")) n.triedToAllocate = v;
  if (auto v = sizeAfter(line, "you tried to allocate")) n.triedToAllocate = v;  // DefaultCPUAllocator
  if (contains(line, "total capacity;") || contains(line, "already allocated")) {
    // Formats A/B: "(GPU 0; T total capacity; A already allocated; F free; R reserved in total by PyTorch)"
    n.totalCapacity = sizeBefore(line, " total capacity");
    n.allocatedByPytorch = sizeBefore(line, " already allocated");
    n.free = sizeBefore(line, " free;");
    if (auto reserved = sizeBefore(line, " reserved in total by PyTorch"); reserved && n.allocatedByPytorch) {
      n.reservedUnallocated = *reserved - *n.allocatedByPytorch;
    }
  } else if (contains(line, "has a total capac")) {
    // Formats C/D/E.
    const std::size_t at = line.find("has a total capac");
    n.totalCapacity = sizeAfter(line, " of ", at);
    n.free = sizeAfter(line, " of which ", at);
    n.processInUse = sizeAfter(line, "this process has ");
    n.allocatedByPytorch = sizeAfter(line, "Of the allocated memory ");
    n.reservedUnallocated = sizeAfter(line, ", and ");
    if (!n.reservedUnallocated) n.reservedUnallocated = sizeAfter(line, " and ");
    for (std::size_t p = line.find("Process "); p != std::string_view::npos; p = line.find("Process ", p + 8)) {
      if (auto v = sizeAfter(line, " has ", p)) n.otherProcesses += *v;
    }
  } else if (contains(line, "while trying to map ")) {
    // PyTorch's expandable segments: "... while trying to map 20971520 bytes (free: 15663104, total: 33671348224)."
    n.triedToAllocate = sizeAfter(line, "while trying to map ");
    n.free = bytesAfter(line, "(free: ");
    n.totalCapacity = bytesAfter(line, "total: ");
  } else if (kind == OomKind::MpsAlloc) {
    // "MPS backend out of memory (MPS allocated: A, other allocations: O, max allowed: M). Tried to allocate T"
    n.allocatedByPytorch = sizeAfter(line, "MPS allocated:");
    n.totalCapacity = sizeAfter(line, "max allowed:");
  }
}

}  // namespace oomlint
