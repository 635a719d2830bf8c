#include <nlohmann/json.hpp>

#include "format/formatters.h"

namespace oomlint {

namespace {

nlohmann::ordered_json position(const Position& p) { return {{"line", p.line}, {"column", p.column}}; }

nlohmann::ordered_json fixValue(const std::string& jsonText) {
  auto parsed = nlohmann::ordered_json::parse(jsonText, nullptr, /*allow_exceptions=*/false);
  return parsed.is_discarded() ? nlohmann::ordered_json(jsonText) : parsed;
}

}  // namespace

std::string formatJson(const Report& report) {
  nlohmann::ordered_json out;
  out["tool"] = {{"name", "oomlint"}, {"version", toolVersion()}};
  out["files"] = nlohmann::ordered_json::array();
  if (!report.internalError.empty()) out["error"] = report.internalError;
  for (const auto& file : report.files) {
    nlohmann::ordered_json f;
    f["path"] = file.path;
    f["kind"] = file.kind;
    f["diagnostics"] = nlohmann::ordered_json::array();
    for (const auto& d : file.diagnostics) {
      nlohmann::ordered_json j;
      j["code"] = d.code;
      j["severity"] = std::string(toString(d.severity));
      j["message"] = d.message;
      j["path"] = d.path;
      j["range"] = {{"start", position(d.range.start)}, {"end", position(d.range.end)}};
      if (d.fix) j["fix"] = {{"path", d.fix->path}, {"from", fixValue(d.fix->fromJson)}, {"to", fixValue(d.fix->toJson)}};
      f["diagnostics"].push_back(std::move(j));
    }
    out["files"].push_back(std::move(f));
  }
  // Invalid UTF-8 cannot reach here (inputs are validated), but never let a dump throw.
  return out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace oomlint
