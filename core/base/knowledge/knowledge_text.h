// A string of the knowledge: a view, never a copy. At run time it points into the compiled tables' constant
// text (knowledge_tape.h), so reading the knowledge copies and allocates no string; in the rules compiler it
// points into the loaded knowledge's own store (Knowledge::kept).
#pragma once

#include <deque>
#include <string>
#include <string_view>

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

inline std::string operator+(const std::string& a, KnowledgeText b) { return a + std::string(b); }
inline std::string operator+(KnowledgeText a, const std::string& b) { return std::string(a) + b; }
inline std::string operator+(const char* a, KnowledgeText b) { return a + std::string(b); }
inline std::string operator+(KnowledgeText a, const char* b) { return std::string(a) + b; }
inline std::string operator+(KnowledgeText a, char b) { return std::string(a) + b; }

}  // namespace oomlint
