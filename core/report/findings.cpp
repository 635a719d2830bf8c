#include "report/findings.h"

#include "base/document/node.h"
#include "base/knowledge/knowledge.h"

namespace oomlint {

void Findings::report(RuleId code, Range range, KeyPath path, std::string message,
                      std::optional<Severity> severity, std::optional<Fix> fix) {
  Diagnostic d;
  d.code = code;
  d.severity = severity.value_or(knowledge().catalog.rule(code).severity);
  d.message = std::move(message);
  d.path = std::move(path);
  d.range = range;
  d.fix = std::move(fix);
  diagnostics_.push_back(std::move(d));
}

std::string jsonText(const Node* value) {
  if (value == nullptr || !value->isScalar()) return "null";
  return JsonWriter().value(value).take();
}

}  // namespace oomlint
