// The knowledge as constant tables. At build time the rules compiler loads rules/*.yaml into a
// Knowledge and walks it through each struct's fields(), writing every value in turn into three
// arrays (the generated knowledge_tables.cpp); at start-up the same walk over an empty Knowledge reads
// them back. Nothing is parsed, and the writer and the reader cannot disagree on the order: both are
// this one walk.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/knowledge/knowledge.h"
#include "base/knowledge/tape.h"

namespace oomlint {

KnowledgeTape knowledgeTape();  // defined in the generated knowledge_tables.cpp

namespace tape {
inline std::uint32_t zigzag(std::int32_t v) { return (static_cast<std::uint32_t>(v) << 1) ^ static_cast<std::uint32_t>(v >> 31); }
inline std::int32_t unzigzag(std::uint32_t u) { return static_cast<std::int32_t>((u >> 1) ^ (0u - (u & 1))); }
inline constexpr double kWholeRealLimit = 1 << 26;  // twice it still fits an int32
}  // namespace tape

// Fills `k` from the tape; false when the tape and the walk disagree (a stale build). Its lazy parts are read on
// first use and say so themselves (LazyPart::load).
bool readKnowledge(const KnowledgeTape& tape, Knowledge& k);

namespace tape {

template <class T> inline constexpr bool kIsVector = false;
template <class T> inline constexpr bool kIsVector<std::vector<T>> = true;
template <class T> inline constexpr bool kIsVector<std::deque<T>> = true;  // a list of what does not move (a LazyPart)
template <class T> inline constexpr bool kIsOptional = false;
template <class T> inline constexpr bool kIsOptional<std::optional<T>> = true;
template <class T> inline constexpr bool kIsPair = false;
template <class A, class B> inline constexpr bool kIsPair<std::pair<A, B>> = true;
template <class T> inline constexpr bool kIsArray = false;
template <class T, std::size_t N> inline constexpr bool kIsArray<std::array<T, N>> = true;
template <class T> inline constexpr bool kIsLazyPart = false;
template <class T> inline constexpr bool kIsLazyPart<LazyPart<T>> = true;
template <class T> inline constexpr bool kIsLazyParts = false;
template <class T> inline constexpr bool kIsLazyParts<LazyParts<T>> = true;
template <class T> inline constexpr bool kIsStringMap = false;
template <class T> inline constexpr bool kIsStringMap<std::unordered_map<std::string, T>> = true;

// Io gives integer(std::int32_t&), real(double&) and text(std::string&); with Io::kReading they fill
// the value (and newNode() makes a default's node, view(KnowledgeText&) points into the tape's text), otherwise
// they take it.
template <class Io>
class Walk {
 public:
  explicit Walk(Io& io) : io_(io) {}

  template <class... T>
  void operator()(T&... x) {
    (walk(x), ...);
  }

  template <class T>
  void walk(T& x) {
    if constexpr (std::is_same_v<T, std::string>) {
      io_.text(x);
    } else if constexpr (std::is_same_v<T, KnowledgeText>) {
      text(x);
    } else if constexpr (std::is_same_v<T, KnowledgeTexts>) {
      texts(x);
    } else if constexpr (std::is_same_v<T, bool>) {
      std::int32_t v = x;
      io_.integer(v);
      x = v != 0;
    } else if constexpr (std::is_enum_v<T> || (std::is_integral_v<T> && sizeof(T) <= 4)) {
      auto v = static_cast<std::int32_t>(x);
      io_.integer(v);
      x = static_cast<T>(v);
    } else if constexpr (std::is_arithmetic_v<T>) {
      auto v = static_cast<double>(x);
      io_.real(v);
      x = static_cast<T>(v);
    } else if constexpr (kIsOptional<T>) {
      bool has = x.has_value();
      walk(has);
      if (!has) x.reset();
      else walk(x ? *x : x.emplace());
    } else if constexpr (kIsVector<T>) {
      x.resize(count(x.size()));
      for (auto& item : x) walk(item);
    } else if constexpr (kIsArray<T>) {
      for (auto& item : x) walk(item);
    } else if constexpr (kIsPair<T>) {
      walk(x.first);
      walk(x.second);
    } else if constexpr (kIsStringMap<T>) {
      map(x);
    } else if constexpr (kIsLazyPart<T>) {
      part(x);
    } else if constexpr (kIsLazyParts<T>) {
      parts(x);
    } else if constexpr (std::is_same_v<T, LiteralSet>) {
      literals(x);
    } else if constexpr (std::is_same_v<T, const Node*>) {
      node(x);
    } else if constexpr (std::is_same_v<T, MapEntry>) {
      walk(x.key);
      walk(x.value);
    } else {
      fields(*this, x);
    }
  }

 private:
  std::size_t count(std::size_t n) {
    auto v = static_cast<std::int32_t>(n);
    io_.integer(v);
    return v < 0 ? 0 : static_cast<std::size_t>(v);
  }

  // Read as a view into the tape's text, written as the string it shows.
  void text(KnowledgeText& x) {
    if constexpr (Io::kReading) {
      io_.view(x);
    } else {
      std::string copy(x);
      io_.text(copy);
    }
  }

  // A list of texts: its count, then its items as one text.
  void texts(KnowledgeTexts& x) {
    const auto n = static_cast<std::uint32_t>(count(x.size()));
    KnowledgeText joined = x.joined();
    text(joined);
    if constexpr (Io::kReading) x = KnowledgeTexts(joined, n);
  }

  // A lazy part is its own tape: the writer gives its three sizes, then its values; the reader notes where it
  // lies, skips it, and leaves the reading to its first use.
  template <class P>
  void part(LazyPart<P>& x) {
    if constexpr (Io::kReading) {
      x.defer(io_.skipPart(), &readPart<P>);
    } else {
      Io inner;
      Walk<Io>(inner).walk(x.value());
      io_.appendPart(inner);
    }
  }

  // A list of lazy parts: its count, then one part holding them all, each a part of its own. The reader notes where
  // the list lies and skips it; where each part lies is found on the first lookup (LazyParts).
  template <class P>
  void parts(LazyParts<P>& x) {
    const std::size_t n = count(x.size());
    if constexpr (Io::kReading) {
      x.defer(n, io_.skipPart(), &readPart<P>, &Io::splitParts);
    } else {
      Io region;
      for (std::size_t i = 0; i < n; ++i) {
        Io inner;
        Walk<Io>(inner).walk(x.value(i));
        region.appendPart(inner);
      }
      io_.appendPart(region);
    }
  }

  template <class P>
  static bool readPart(const KnowledgeTape& tape, P& value, KnowledgeNodes& nodes) {
    Io reader(tape, nodes);
    Walk<Io>(reader).walk(value);
    return reader.exact();
  }

  // Read back in the writer's iteration order; the map's own order is not part of the knowledge.
  template <class V>
  void map(std::unordered_map<std::string, V>& m) {
    const std::size_t n = count(m.size());
    if constexpr (Io::kReading) {
      for (std::size_t i = 0; i < n; ++i) {
        std::string key;
        io_.text(key);
        walk(m[key]);
      }
    } else {
      for (auto& [key, value] : m) {
        std::string k = key;
        io_.text(k);
        walk(value);
      }
    }
  }

  // The words, in id order: added again, each keeps its id.
  void literals(LiteralSet& set) {
    const std::size_t n = count(set.size());
    for (std::size_t i = 0; i < n; ++i) {
      std::string word;
      if constexpr (!Io::kReading) word = set.words()[i];
      io_.text(word);
      if constexpr (Io::kReading) set.add(word);
    }
  }

  // A schema default: its value, not where the schema wrote it (aliases resolved).
  void node(const Node*& p) {
    bool has = p != nullptr;
    walk(has);
    if (!has) {
      p = nullptr;
      return;
    }
    if constexpr (Io::kReading) {
      Node& n = io_.newNode();
      nodeFields(n);
      p = &n;
    } else {
      Node copy = *p->resolved();
      nodeFields(copy);
    }
  }

  void nodeFields(Node& n) { (*this)(n.kind, n.type, n.quoted, n.boolValue, n.flowStyle, n.hasMergeKey, n.text, n.intValue, n.floatValue, n.entries, n.items); }

  Io& io_;
};

}  // namespace tape

}  // namespace oomlint
