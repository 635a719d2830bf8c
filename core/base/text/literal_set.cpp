#include "base/text/literal_set.h"

#include <algorithm>
#include <cstring>

namespace oomlint {

LiteralSet::Id LiteralSet::add(std::string_view word) {
  if (auto at = std::find(words_.begin(), words_.end(), word); at != words_.end()) return static_cast<Id>(at - words_.begin());
  const Id id = static_cast<Id>(words_.size());
  words_.emplace_back(word);
  const auto first = static_cast<unsigned char>(word[0]);
  byFirstByte_[first].push_back(id);
  if (word.size() == 1) {
    for (unsigned second = 0; second < 256; ++second) startPairs_.set(pairIndex(first, static_cast<unsigned char>(second)));
  } else {
    startPairs_.set(pairIndex(first, static_cast<unsigned char>(word[1])));
  }
  return id;
}

void LiteralSet::find(std::string_view text, Found& found) const {
  found.bits_.assign((words_.size() + 63) / 64, 0);
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n; ++i) {
    // A one-byte word at the last byte pairs with any byte: test the pair as if a NUL followed.
    if (!startPairs_[pairIndex(bytes[i], i + 1 < n ? bytes[i + 1] : 0)]) continue;
    for (Id id : byFirstByte_[bytes[i]]) {
      const std::string& word = words_[id];
      if (word.size() <= n - i && std::memcmp(bytes + i, word.data(), word.size()) == 0) found.bits_[id / 64] |= std::uint64_t{1} << (id % 64);
    }
  }
}

}  // namespace oomlint
