// oomlint-rules-compiler: turns a rules/ YAML data file into compact JSON at build time, so the binary
// parses its knowledge with the fast JSON reader at start-up instead of yaml-cpp, and a broken data file
// fails the build with its line and column. Values keep the types oomlint's YAML reader gives them.
//   oomlint-rules-compiler IN.yaml OUT.json
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "base/document/reader.h"

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

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: oomlint-rules-compiler IN.yaml OUT.json\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) {
    std::fprintf(stderr, "%s: cannot read\n", argv[1]);
    return 1;
  }
  auto doc = oomlint::readDocument(text.str());
  for (const auto& problem : doc->problems()) {
    std::fprintf(stderr, "%s:%d:%d: %s\n", argv[1], problem.range.start.line, problem.range.start.column, problem.message.c_str());
  }
  if (!doc->problems().empty() || doc->root() == nullptr) return 1;
  std::ofstream out(argv[2], std::ios::binary | std::ios::trunc);
  // ASCII only (\u escapes): a column is then a byte count, so positions cost nothing at start-up.
  out << toJson(doc->root(), 0).dump(-1, ' ', true, nlohmann::json::error_handler_t::strict) << "\n";
  return out ? 0 : 1;
}
