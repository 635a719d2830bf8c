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

// Where one of a list's parts lies in the list's stretch of the tables (LazyParts): offsets and sizes in each array.
struct PartSpan {
  std::uint32_t ints = 0, reals = 0, text = 0;
  std::uint32_t intCount = 0, realCount = 0, textSize = 0;

  KnowledgeTape in(const KnowledgeTape& region) const {
    return {region.ints.subspan(ints, intCount), region.reals.subspan(reals, realCount), region.text.substr(text, textSize)};
  }
};

// Where a lazy part lies in the tables, as its LazyPart keeps it until first use: the tape's three spans in 40
// bytes instead of 48.
class KnowledgePart {
 public:
  KnowledgePart() = default;
  explicit KnowledgePart(const KnowledgeTape& tape)
      : ints_(tape.ints.data()), reals_(tape.reals.data()), text_(tape.text.data()),
        intCount_(static_cast<std::uint32_t>(tape.ints.size())), realCount_(static_cast<std::uint32_t>(tape.reals.size())),
        textSize_(static_cast<std::uint32_t>(tape.text.size())) {}
  KnowledgeTape tape() const { return {{ints_, intCount_}, {reals_, realCount_}, {text_, textSize_}}; }

 private:
  const std::uint8_t* ints_ = nullptr;
  const double* reals_ = nullptr;
  const char* text_ = nullptr;
  std::uint32_t intCount_ = 0, realCount_ = 0, textSize_ = 0;
};

}  // namespace oomlint
