// The knowledge's compiled tables as the reader sees them (knowledge_tape.h): three constant arrays.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace oomlint {

struct KnowledgeTape {
  // Flags, enums, small integers, counts and string lengths, each a varint (LEB128 of its zigzag
  // form): nearly all fit in one byte; as int32s they made the module's download 7.7 KiB larger.
  std::span<const std::uint8_t> ints;
  // Numbers: a whole one below kWholeRealLimit is the varint of twice itself in `ints` (two thirds of them are 0,
  // most others small: as doubles they were 30 KB of the module); any other is a 1 there and its double here.
  std::span<const double> reals;
  std::string_view text;               // every string, back to back
};

}  // namespace oomlint
