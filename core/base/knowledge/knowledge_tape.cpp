// Start-up: the knowledge read back from the tables the rules compiler generated (knowledge_tape.h).
#include "base/knowledge/knowledge_tape.h"

#include <memory>

namespace oomlint {

namespace {

class TapeReader {
 public:
  static constexpr bool kReading = true;

  TapeReader(const KnowledgeTape& tape, KnowledgeNodes& nodes) : tape_(tape), nodes_(nodes) {}

  // Past the end reads zeros and empty strings (a stale build), never out of bounds.
  void integer(std::int32_t& v) {
    std::uint32_t u = 0;
    for (int shift = 0;; shift += 7) {
      if (i_ >= tape_.ints.size() || shift > 28) {
        overrun_ = true;
        v = 0;
        return;
      }
      const std::uint8_t byte = tape_.ints[i_++];
      u |= static_cast<std::uint32_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) break;
    }
    v = tape::unzigzag(u);
  }
  void real(double& v) {
    std::int32_t code = 0;
    integer(code);
    if (code != 1) v = code / 2;  // a whole number, twice itself
    else v = r_ < tape_.reals.size() ? tape_.reals[r_++] : (overrun_ = true, 0.0);
  }
  void text(std::string& s) { s.assign(nextText()); }
  // The tables' text is constant and lives as long as the program: the view needs no copy.
  void view(KnowledgeText& s) { s = KnowledgeText(nextText()); }
  Node& newNode() { return nodes_.emplace_front(); }

  // A lazy part's tape (knowledge_tape.h): its three sizes, then its values, which are skipped here.
  KnowledgeTape skipPart() {
    std::int32_t ni = 0, nr = 0, nt = 0;
    integer(ni);
    integer(nr);
    integer(nt);
    const auto fits = [&](std::int32_t n, std::size_t at, std::size_t size) { return n >= 0 && at + static_cast<std::size_t>(n) <= size; };
    if (!fits(ni, i_, tape_.ints.size()) || !fits(nr, r_, tape_.reals.size()) || !fits(nt, t_, tape_.text.size())) {
      overrun_ = true;
      return {};
    }
    const KnowledgeTape part{tape_.ints.subspan(i_, static_cast<std::size_t>(ni)), tape_.reals.subspan(r_, static_cast<std::size_t>(nr)),
                             tape_.text.substr(t_, static_cast<std::size_t>(nt))};
    i_ += static_cast<std::size_t>(ni);
    r_ += static_cast<std::size_t>(nr);
    t_ += static_cast<std::size_t>(nt);
    return part;
  }

  // Where each of a list's parts lies in its stretch of the tables (LazyParts): false unless they fill it exactly.
  static bool splitParts(const KnowledgeTape& region, std::span<PartSpan> parts) {
    KnowledgeNodes none;
    TapeReader reader(region, none);
    for (PartSpan& span : parts) {
      const KnowledgeTape part = reader.skipPart();
      if (reader.overrun_) return false;
      span = {static_cast<std::uint32_t>(part.ints.data() - region.ints.data()),
              static_cast<std::uint32_t>(part.reals.data() - region.reals.data()),
              static_cast<std::uint32_t>(part.text.data() - region.text.data()),
              static_cast<std::uint32_t>(part.ints.size()), static_cast<std::uint32_t>(part.reals.size()),
              static_cast<std::uint32_t>(part.text.size())};
    }
    return reader.exact();
  }

  bool exact() const { return !overrun_ && i_ == tape_.ints.size() && r_ == tape_.reals.size() && t_ == tape_.text.size(); }

 private:
  std::string_view nextText() {
    std::int32_t n = 0;
    integer(n);
    const std::size_t length = n < 0 || t_ + static_cast<std::size_t>(n) > tape_.text.size() ? (overrun_ = true, 0) : static_cast<std::size_t>(n);
    const std::string_view text = tape_.text.substr(t_, length);
    t_ += length;
    return text;
  }

  const KnowledgeTape& tape_;
  KnowledgeNodes& nodes_;
  std::size_t i_ = 0, r_ = 0, t_ = 0;
  bool overrun_ = false;
};

}  // namespace

bool readKnowledge(const KnowledgeTape& tape, Knowledge& k) {
  TapeReader reader(tape, k.defaults);
  tape::Walk<TapeReader>(reader).walk(k);
  return reader.exact();
}

const Knowledge& knowledge() {
  // Never destroyed: the process's end returns its memory, and the knowledge's destructors stay out of the module.
  static const Knowledge* const instance = [] {
    auto* k = new Knowledge();
    readKnowledge(knowledgeTape(), *k);
    return k;
  }();
  return *instance;
}

}  // namespace oomlint
