// Inline suppressions in a YAML config:
//   key: value  # oomlint: disable=OL201,OL206 reason    → those codes on this line
//   # oomlint: disable=OL405 reason                       → on a line of its own: the next line
//   # oomlint: disable-file=OL206 reason                  → the whole file
// A suppression that suppresses nothing is a finding (OL108), and so is every suppression when the
// project forbids them (OL109).
#pragma once

#include <string>
#include <vector>

#include "base/document/node.h"
#include "policy/policy.h"
#include "report/report.h"

namespace oomlint {

struct Suppression {
  Range comment;                    // the `# oomlint: …` comment
  int line = 0;                     // the line it covers; 0 for the whole file
  std::vector<std::string> codes;   // normalised rule codes
  std::vector<std::string> unknown; // what it named that is no rule
  std::vector<bool> used;           // per code: did it suppress a finding
};

// The suppression comments of a YAML document: `#` that starts a comment, never inside a scalar.
std::vector<Suppression> findSuppressions(const Document& doc);

// Drops the suppressed findings and reports the unused (OL108) or forbidden (OL109) suppressions.
void applySuppressions(std::vector<Diagnostic>& diagnostics, std::vector<Suppression> suppressions, bool allowed);

// Drops disabled codes and applies severity overrides.
void applyPolicy(std::vector<Diagnostic>& diagnostics, const Policy& policy);

}  // namespace oomlint
