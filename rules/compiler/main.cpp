// oomlint-rules-compiler: compiles the rules/ YAML data at build time.
//   oomlint-rules-compiler --tables OUT.cpp [--for-module] NAME...
//     the knowledge as C++ constant tables (knowledge_tape.h), so that start-up parses nothing. Run from
//     the source root: NAME is rules/NAME.yaml, checked against rules/schema/NAME.schema.yaml; then the
//     loader checks what crosses files (an unknown arch, a family no table has). --for-module (the
//     WebAssembly module, which has no `oomlint schema`, `explain` or SARIF) leaves out the text only those
//     print: each AI Toolkit key's description, each section's source, each rule's summary.
//   oomlint-rules-compiler IN.yaml OUT.json [SCHEMA.yaml]
//     one file as compact JSON, for the scripts that read the figures (scripts/gpu, scripts/census).
// A schema (rules/schema/, see rules_schema.h) turns an unknown or misspelt key, a missing figure or a
// wrong type into an error at file:line:column. On any error nothing is written.
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "base/document/reader.h"
#include "base/knowledge/load/knowledge_loader.h"
#include "rules_schema.h"
#include "tables_writer.h"

namespace {

bool readFile(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) {
    std::fprintf(stderr, "%s: error: cannot read\n", path.c_str());
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

void report(const std::string& path, const oomlint::Position& at, const std::string& message) {
  std::fprintf(stderr, "%s:%d:%d: error: %s\n", path.c_str(), at.line, at.column, message.c_str());
}

// A data file, read and checked against its schema (none: not checked); null on an error.
std::unique_ptr<oomlint::Document> readChecked(const std::string& dataPath, const std::string& schemaPath) {
  std::unique_ptr<oomlint::rules::DataSchema> schema;
  if (!schemaPath.empty()) {
    std::string schemaText;
    if (!readFile(schemaPath, schemaText)) return nullptr;
    std::vector<oomlint::rules::SchemaProblem> problems;
    schema = oomlint::rules::DataSchema::read(std::move(schemaText), problems);
    for (const auto& p : problems) report(schemaPath, p.at, p.message);
    if (!problems.empty()) return nullptr;
  }
  std::string text;
  if (!readFile(dataPath, text)) return nullptr;
  auto doc = oomlint::readDocument(std::move(text));
  for (const auto& problem : doc->problems()) report(dataPath, problem.range.start, problem.message);
  if (!doc->problems().empty() || doc->root() == nullptr) return nullptr;
  if (!schema) return doc;
  auto problems = schema->validate(doc->root(), stem(dataPath));
  for (const auto& p : problems) report(dataPath, p.at, p.message);
  return problems.empty() ? std::move(doc) : nullptr;
}

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

int compileJson(const std::string& in, const std::string& outPath, const std::string& schema) {
  auto doc = readChecked(in, schema);
  if (!doc) return 1;
  std::ofstream out(outPath, std::ios::binary | std::ios::trunc);
  // ASCII only (\u escapes), as Python's json module writes by default.
  out << toJson(doc->root(), 0).dump(-1, ' ', true, nlohmann::json::error_handler_t::strict) << "\n";
  return out ? 0 : 1;
}

void leaveOutCliText(oomlint::Knowledge& k) {
  for (auto& [name, part] : k.schema.sectionsToFill()) {  // in place: the tables' order is unchanged
    oomlint::SectionSpec& section = part.value();
    section.source = {};
    for (std::size_t i = 0; i < section.specs.size(); ++i) section.specs.value(i).doc = {};
  }
  oomlint::Catalog catalog;  // the same rules in the same order (RuleId indexes them), without their summaries
  for (auto rule : k.catalog.rules()) {
    rule.summary = {};
    catalog.add(std::move(rule));
  }
  k.catalog = std::move(catalog);
}

int compileTables(const std::string& outPath, bool forModule, const std::vector<std::string>& names) {
  std::map<std::string, std::unique_ptr<oomlint::Document>, std::less<>> files;
  bool ok = true;
  for (const auto& name : names) {
    const std::string path = "rules/" + name + ".yaml";
    auto doc = readChecked(path, "rules/schema/" + name + ".schema.yaml");
    ok = ok && doc != nullptr;
    files[path] = std::move(doc);
  }
  if (!ok) return 1;
  std::vector<std::string> errors;
  auto knowledge = oomlint::loadKnowledge(
      [&](std::string_view path) -> const oomlint::Node* {
        auto it = files.find(path);
        return it == files.end() ? nullptr : it->second->root();
      },
      errors);
  for (const auto& e : errors) std::fprintf(stderr, "error: %s\n", e.c_str());
  if (!errors.empty()) return 1;
  if (forModule) leaveOutCliText(*knowledge);
  std::ofstream out(outPath, std::ios::binary | std::ios::trunc);
  out << oomlint::rules::knowledgeTables(*knowledge);
  return out ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 4 && std::string_view(argv[1]) == "--tables") {
    const bool forModule = std::string_view(argv[3]) == "--for-module";
    return compileTables(argv[2], forModule, std::vector<std::string>(argv + 3 + forModule, argv + argc));
  }
  if (argc == 3 || argc == 4) return compileJson(argv[1], argv[2], argc == 4 ? argv[3] : "");
  std::fprintf(stderr, "usage: oomlint-rules-compiler --tables OUT.cpp [--for-module] NAME... | IN.yaml OUT.json [SCHEMA.yaml]\n");
  return 2;
}
