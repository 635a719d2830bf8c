// A string of the knowledge: a view, never a copy. At run time it points into the compiled tables' constant
// text (knowledge_tape.h), so reading the knowledge copies and allocates no string; in the rules compiler it
// points into the loaded knowledge's own store (Knowledge::kept).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace oomlint {

class KnowledgeText : public std::string_view {
 public:
  constexpr KnowledgeText() = default;
  constexpr KnowledgeText(const char* literal) : std::string_view(literal) {}  // a literal, which lives as long
  constexpr explicit KnowledgeText(std::string_view text) : std::string_view(text) {}
  // A view of a string could outlive it: keep the string in a KnowledgeTextStore first.
  KnowledgeText(const std::string&) = delete;
  KnowledgeText(std::string&&) = delete;

  operator std::string() const { return std::string(data(), size()); }
};

// Keeps the strings that views made outside the tables show: the rules compiler's loader, a table built at run time.
class KnowledgeTextStore {
 public:
  KnowledgeText keep(std::string text) { return KnowledgeText(std::string_view(kept_.emplace_back(std::move(text)))); }

 private:
  std::deque<std::string> kept_;  // a deque never moves what it holds
};

// A short list of knowledge texts (a GPU's aliases, a schema section's key names) as one text, each item after a
// byte that gives its length: read from the tables, it is a view like any KnowledgeText and allocates nothing (a
// vector per GPU was a hundred allocations at every start), and a lookup steps from item to item by their lengths.
class KnowledgeTexts {
 public:
  static constexpr std::size_t kLongestItem = 255;

  class iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = KnowledgeText;
    using difference_type = std::ptrdiff_t;
    using pointer = const KnowledgeText*;
    using reference = KnowledgeText;

    iterator() = default;
    KnowledgeText operator*() const { return KnowledgeText(std::string_view(item_ + 1, length())); }
    iterator& operator++() {
      item_ += 1 + length();
      --left_;
      return *this;
    }
    iterator operator++(int) {
      iterator before = *this;
      ++*this;
      return before;
    }
    bool operator==(const iterator& other) const { return left_ == other.left_; }

   private:
    friend class KnowledgeTexts;
    iterator(std::string_view joined, std::uint32_t left) : item_(joined.data()), end_(joined.data() + joined.size()), left_(left) {}
    // The current item's length, within the text whatever its length byte says (a stale build reads short, never past).
    std::size_t length() const {
      if (item_ == end_) return 0;
      return std::min<std::size_t>(static_cast<unsigned char>(*item_), static_cast<std::size_t>(end_ - item_ - 1));
    }
    const char* item_ = nullptr;
    const char* end_ = nullptr;
    std::uint32_t left_ = 0;  // items from here to the end
  };

  KnowledgeTexts() = default;
  // Items that already live as long as the knowledge: the tables' view of them (the tape's reader).
  KnowledgeTexts(KnowledgeText joined, std::uint32_t count) : joined_(joined), count_(count) {}
  // Items joined and kept in `store` (the rules compiler's loader, which refuses an item over kLongestItem bytes;
  // a longer one is cut here).
  KnowledgeTexts(const std::vector<KnowledgeText>& items, KnowledgeTextStore& store) : count_(static_cast<std::uint32_t>(items.size())) {
    std::string joined;
    for (const auto& item : items) {
      const std::size_t length = std::min(item.size(), kLongestItem);
      joined += static_cast<char>(static_cast<unsigned char>(length));
      joined += item.substr(0, length);
    }
    joined_ = store.keep(std::move(joined));
  }

  // Where `item` is in the list: each length byte compared first, the bytes only where it matches (a schema
  // section's lookups step over dozens of keys). An item that would run past the text (a stale build) never matches.
  std::optional<std::size_t> indexOf(std::string_view item) const {
    const char* p = joined_.data();
    const char* const end = p + joined_.size();
    for (std::uint32_t i = 0; i < count_ && p < end; ++i) {
      const std::size_t length = static_cast<unsigned char>(*p);
      if (length == item.size() && length < static_cast<std::size_t>(end - p) && std::memcmp(p + 1, item.data(), length) == 0) return i;
      p += 1 + length;
    }
    return std::nullopt;
  }

  iterator begin() const { return {joined_, count_}; }
  iterator end() const { return {}; }
  std::size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  KnowledgeText joined() const { return joined_; }

 private:
  KnowledgeText joined_;
  std::uint32_t count_ = 0;
};

inline std::string operator+(const std::string& a, KnowledgeText b) { return a + std::string(b); }
inline std::string operator+(KnowledgeText a, const std::string& b) { return std::string(a) + b; }
inline std::string operator+(const char* a, KnowledgeText b) { return a + std::string(b); }
inline std::string operator+(KnowledgeText a, const char* b) { return std::string(a) + b; }
inline std::string operator+(KnowledgeText a, char b) { return std::string(a) + b; }

}  // namespace oomlint
