// Bounds that keep a hostile or broken input from exhausting memory, time or the (small) WASM stack.
// Real AI Toolkit configs are a few kilobytes, a few hundred nodes and under 10 levels deep.
#pragma once

#include <cstddef>
#include <cstdint>

namespace oomlint {

struct ReadLimits {
  std::size_t maxBytes = 8u << 20;      // 8 MiB
  int maxDepth = 100;                   // nesting of mappings and sequences
  std::size_t maxNodes = 500'000;       // nodes in one document
  std::size_t maxLineBytes = 1u << 20;  // one line
  std::uint64_t maxExpandedNodes = 1'000'000;  // nodes once aliases are expanded (billion laughs)
};

}  // namespace oomlint
