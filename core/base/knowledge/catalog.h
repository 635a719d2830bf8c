// The rule catalog (rules/catalog.yaml) and each rule's documentation page (docs/rules/CODE.md).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/knowledge/severity.h"
#include "base/rule_ids.h"

namespace oomlint {


struct RuleInfo {
  std::string code;   // OL201
  std::string name;   // unknown-key
  Severity severity = Severity::Warning;
  std::string title;
  std::string summary;
  std::string anchor;
  std::string source;
  std::string_view page;  // the Markdown page, empty when missing
};

class Catalog {
 public:
  // Accepts a code ("OL201", case-insensitive) or a name ("unknown-key").
  const RuleInfo* find(std::string_view codeOrName) const;
  const std::vector<RuleInfo>& rules() const { return rules_; }
  // Every RuleId has its entry (the loader checks the catalog against the generated ids).
  const RuleInfo& rule(RuleId id) const { return rules_[static_cast<std::size_t>(id)]; }
  void add(RuleInfo rule) { rules_.push_back(std::move(rule)); }

 private:
  std::vector<RuleInfo> rules_;
};

}  // namespace oomlint
