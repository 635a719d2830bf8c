// The one place that rewrites config text: a Fix's edits are made here from the document, at exact
// byte ranges, and applied here, touching nothing else: comments, key order, quoting and line endings
// stay as they were (what `oomlint fix` promises).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/document/node.h"
#include "report/fix.h"
#include "report/report.h"

namespace oomlint {

// The edit that writes `toJson` (a JSON text: JSON values are valid YAML flow values) at `path`: the
// value replaced where the key exists, else a new entry at the end of its section. An unquoted string
// stays unquoted where YAML reads the new one back as the same string. nullopt, with the reason in
// `why`, when there is no section to put it in.
std::optional<Edit> editFor(const Document& doc, const KeyPath& path, const std::string& toJson, std::string* why = nullptr);

// Fills the fix's edits from the document (or says in `unplaced` why it has none).
void placeFix(const Document& doc, Fix& fix);

// Every fix of a plan and of the findings placed in the document (the one pass each system makes).
void placeFixes(const Document& doc, std::vector<PlanStep>& plan, std::vector<Diagnostic>& diagnostics);

// `text` with the edits applied. Edits are made against the same text and must not overlap; several
// insertions at one place keep their order.
std::string applyEdits(std::string text, std::vector<Edit> edits);

}  // namespace oomlint
