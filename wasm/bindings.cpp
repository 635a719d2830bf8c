// Embind bindings only: JavaScript gets the core's entry point and its knowledge as JSON strings.
// Every function returns data; nothing throws into JavaScript.
#include <emscripten/bind.h>

#include <exception>
#include <nlohmann/json.hpp>
#include <string>

#include "analyze.h"
#include "format/formatters.h"
#include "knowledge/knowledge.h"

namespace {

std::string errorJson(const std::string& message) {
  return nlohmann::json{{"tool", {{"name", "oomlint"}, {"version", oomlint::toolVersion()}}},
                        {"files", nlohmann::json::array()},
                        {"error", message}}
      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// The Report JSON (DESIGN.md contract) for one pasted input.
std::string analyze(const std::string& text, const std::string& path) {
  try {
    return oomlint::formatJson(oomlint::analyze({oomlint::Input{path.empty() ? "<input>" : path, text}}));
  } catch (const std::exception& e) {
    return errorJson(e.what());
  } catch (...) {
    return errorJson("unknown error");
  }
}

// The rule catalog, for the UI's rule list and links.
std::string rules() {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& rule : oomlint::knowledge().catalog.rules()) {
    out.push_back({{"code", rule.code},
                   {"name", rule.name},
                   {"severity", std::string(oomlint::toString(rule.severity))},
                   {"title", rule.title},
                   {"summary", rule.summary}});
  }
  return out.dump();
}

// A rule's documentation page (Markdown), or an empty string.
std::string explain(const std::string& code) {
  const oomlint::RuleInfo* rule = oomlint::knowledge().catalog.find(code);
  return rule ? std::string(rule->page) : std::string();
}

std::string version() { return oomlint::toolVersion(); }

}  // namespace

EMSCRIPTEN_BINDINGS(oomlint) {
  emscripten::function("analyze", &analyze);
  emscripten::function("rules", &rules);
  emscripten::function("explain", &explain);
  emscripten::function("version", &version);
}
