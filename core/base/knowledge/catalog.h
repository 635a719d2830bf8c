// The rule catalog (rules/catalog.yaml). A rule's documentation page is rulePage() (embedded.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/knowledge/knowledge_text.h"
#include "base/knowledge/severity.h"
#include "base/rule_ids.h"

namespace oomlint {


struct RuleInfo {
  KnowledgeText code;   // OL201
  KnowledgeText name;   // unknown-key
  Severity severity = Severity::Warning;
  KnowledgeText title;
  KnowledgeText summary;
};

// Each struct's fields, for the rules compiler's tables (knowledge_tape.h): a field left out of
// its list is not compiled in, and reads as its default at run time.
template <class V> void fields(V& v, RuleInfo& x) { v(x.code, x.name, x.severity, x.title, x.summary); }

class Catalog {
 public:
  template <class V> friend void fields(V& v, Catalog& x);  // knowledge_tape.h
  // Accepts a code ("OL201", case-insensitive) or a name ("unknown-key").
  const RuleInfo* find(std::string_view codeOrName) const;
  const std::vector<RuleInfo>& rules() const { return rules_; }
  // Every RuleId has its entry (the loader checks the catalog against the generated ids).
  const RuleInfo& rule(RuleId id) const { return rules_[static_cast<std::size_t>(id)]; }
  void add(RuleInfo rule) { rules_.push_back(std::move(rule)); }

 private:
  std::vector<RuleInfo> rules_;
};

template <class V> void fields(V& v, Catalog& x) { v(x.rules_); }

}  // namespace oomlint
