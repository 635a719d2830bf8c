// A string of the knowledge: a view, never a copy. At run time it points into the compiled tables' constant
// text (knowledge_tape.h), so reading the knowledge copies and allocates no string; in the rules compiler it
// points into the loaded knowledge's own store (Knowledge::kept).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <iterator>
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

// A short list of knowledge texts (a GPU's or an architecture's aliases) as one text, the items separated by NUL,
// which no rule's text holds: read from the tables, it is a view like any KnowledgeText and allocates nothing
// (a vector per GPU was a hundred allocations at every start). Iterated in order; no random access.
class KnowledgeTexts {
 public:
  static constexpr char kSeparator = '\0';

  class iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = KnowledgeText;
    using difference_type = std::ptrdiff_t;
    using pointer = const KnowledgeText*;
    using reference = KnowledgeText;

    iterator() = default;
    KnowledgeText operator*() const { return KnowledgeText(std::string_view(item_, length_)); }
    iterator& operator++() {
      item_ += length_ + 1;
      --left_;
      length_ = left_ > 0 ? lengthAt(item_, end_) : 0;
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
    iterator(std::string_view joined, std::uint32_t left)
        : item_(joined.data()), end_(joined.data() + joined.size()), left_(left), length_(left > 0 ? lengthAt(item_, end_) : 0) {}
    // An item's length: up to its separator or the end. Items are a few letters: a loop, not a call to memchr.
    static std::size_t lengthAt(const char* item, const char* end) {
      const char* p = item;
      while (p != end && *p != kSeparator) ++p;
      return static_cast<std::size_t>(p - item);
    }
    const char* item_ = nullptr;
    const char* end_ = nullptr;
    std::uint32_t left_ = 0;  // items from here to the end: an empty last item still counts
    std::size_t length_ = 0;  // the current item's
  };

  KnowledgeTexts() = default;
  // Items that already live as long as the knowledge: the tables' view of them (the tape's reader).
  KnowledgeTexts(KnowledgeText joined, std::uint32_t count) : joined_(joined), count_(count) {}
  // Items joined and kept in `store` (the rules compiler's loader; a table built at run time).
  KnowledgeTexts(const std::vector<KnowledgeText>& items, KnowledgeTextStore& store) : count_(static_cast<std::uint32_t>(items.size())) {
    std::string joined;
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (i > 0) joined += kSeparator;
      joined += items[i];
    }
    joined_ = store.keep(std::move(joined));
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
