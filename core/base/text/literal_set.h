// Which of many literal words occur in a text, found in one pass over it: a log line is matched against
// a hundred markers without a hundred searches. A table of the byte pairs that start a word skips most
// positions; at the others only the words that start with that byte are compared.
#pragma once

#include <array>
#include <bitset>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace oomlint {

class LiteralSet {
 public:
  using Id = std::uint16_t;

  // The words found in a text, by id.
  class Found {
   public:
    bool has(Id id) const { return (bits_[id / 64] >> (id % 64)) & 1u; }

   private:
    friend class LiteralSet;
    std::vector<std::uint64_t> bits_;
  };

  // Adds a word (not empty) and returns its id; the same word again returns the same id.
  Id add(std::string_view word);
  std::size_t size() const { return words_.size(); }
  const std::vector<std::string>& words() const { return words_; }  // by id

  // Sets `found` to the words that occur in `text`.
  void find(std::string_view text, Found& found) const;

 private:
  static std::size_t pairIndex(unsigned char first, unsigned char second) { return (std::size_t{first} << 8) | second; }

  std::vector<std::string> words_;
  std::array<std::vector<Id>, 256> byFirstByte_;
  std::bitset<65536> startPairs_;  // the first two bytes of some word (every second byte for a one-byte word)
};

}  // namespace oomlint
