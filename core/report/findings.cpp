#include "report/findings.h"

#include <nlohmann/json.hpp>

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

std::string jsonString(std::string_view text) {
  return nlohmann::ordered_json(std::string(text)).dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::string jsonText(const Node* value) {
  if (value == nullptr) return "null";
  const Node* v = value->resolved();
  if (v->kind != NodeKind::Scalar) return "null";
  switch (v->type) {
    case ScalarType::Null: return "null";
    case ScalarType::Bool: return v->boolValue ? "true" : "false";
    case ScalarType::Int: return std::to_string(v->intValue);
    case ScalarType::Float: return nlohmann::ordered_json(v->floatValue).dump();
    case ScalarType::String: return jsonString(v->text);
  }
  return "null";
}

}  // namespace oomlint
