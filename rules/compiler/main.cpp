// oomlint-rules-compiler: turns a rules/ YAML data file into compact JSON at build time, so the binary
// parses its knowledge with the fast JSON reader at start-up instead of yaml-cpp, and a broken data file
// fails the build with its line and column. Values keep the types oomlint's YAML reader gives them.
// With a schema (rules/schema/, see rules_schema.h) the data is checked against it first: an unknown
// or misspelt key, a missing figure or a wrong type is an error at file:line:column, and no JSON is written.
//   oomlint-rules-compiler IN.yaml OUT.json [SCHEMA.yaml]
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "base/document/reader.h"
#include "rules_schema.h"

namespace {

nlohmann::ordered_json toJson(const oomlint::Node* node, int depth) {
  using oomlint::NodeKind;
  using oomlint::ScalarType;
  const oomlint::Node* n = node->resolved();
  if (depth > 64) return nullptr;
  switch (n->kind) {
    case NodeKind::Mapping: {
      nlohmann::ordered_json out = nlohmann::ordered_json::object();
      for (const auto& entry : n->allEntries()) out[entry.key->resolved()->text] = toJson(entry.value, depth + 1);
      return out;
    }
    case NodeKind::Sequence: {
      nlohmann::ordered_json out = nlohmann::ordered_json::array();
      for (const auto* item : n->items) out.push_back(toJson(item, depth + 1));
      return out;
    }
    case NodeKind::Null:
    case NodeKind::Alias: return nullptr;
    case NodeKind::Scalar: break;
  }
  switch (n->type) {
    case ScalarType::Null: return nullptr;
    case ScalarType::Bool: return n->boolValue;
    case ScalarType::Int: return n->intValue;
    case ScalarType::Float: return n->floatValue;
    case ScalarType::String: return n->text;
  }
  return nullptr;
}

bool readFile(const char* path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) {
    std::fprintf(stderr, "%s: error: cannot read\n", path);
    return false;
  }
  out = text.str();
  return true;
}

// The file's stem names the top level in schema messages: rules/memory.yaml → `memory`.
std::string stem(std::string_view path) {
  path = path.substr(path.find_last_of("/\\") == std::string_view::npos ? 0 : path.find_last_of("/\\") + 1);
  return std::string(path.substr(0, path.find('.')));
}

void report(const char* path, const oomlint::Position& at, const std::string& message) {
  std::fprintf(stderr, "%s:%d:%d: error: %s\n", path, at.line, at.column, message.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 && argc != 4) {
    std::fprintf(stderr, "usage: oomlint-rules-compiler IN.yaml OUT.json [SCHEMA.yaml]\n");
    return 2;
  }
  std::unique_ptr<oomlint::rules::DataSchema> schema;
  if (argc == 4) {
    std::string schemaText;
    if (!readFile(argv[3], schemaText)) return 1;
    std::vector<oomlint::rules::SchemaProblem> problems;
    schema = oomlint::rules::DataSchema::read(std::move(schemaText), problems);
    for (const auto& p : problems) report(argv[3], p.at, p.message);
    if (!problems.empty()) return 1;
  }
  std::string text;
  if (!readFile(argv[1], text)) return 1;
  auto doc = oomlint::readDocument(std::move(text));
  for (const auto& problem : doc->problems()) report(argv[1], problem.range.start, problem.message);
  if (!doc->problems().empty() || doc->root() == nullptr) return 1;
  if (schema) {
    auto problems = schema->validate(doc->root(), stem(argv[1]));
    for (const auto& p : problems) report(argv[1], p.at, p.message);
    if (!problems.empty()) return 1;
  }
  std::ofstream out(argv[2], std::ios::binary | std::ios::trunc);
  // ASCII only (\u escapes): a column is then a byte count, so positions cost nothing at start-up.
  out << toJson(doc->root(), 0).dump(-1, ' ', true, nlohmann::json::error_handler_t::strict) << "\n";
  return out ? 0 : 1;
}
