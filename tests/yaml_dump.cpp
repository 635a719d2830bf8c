// The YAML reader's tree as JSON, for scripts/yaml-differential.py to compare with PyYAML's composed
// tree: kinds, decoded values, styles and exact positions. Aliases are written out as their targets.
#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

#include "base/document/reader.h"

using namespace oomlint;

namespace {

std::string quoted(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto b = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (b < 0x20) {
      static const char* hex = "0123456789abcdef";
      out += "\\u00";
      out += hex[b >> 4];
      out += hex[b & 15];
    } else {
      out += c;
    }
  }
  return out + "\"";
}

void dumpNode(const std::string& source, const Node& n, std::ostream& out, std::vector<const Node*>& ancestors);

std::string position(const Position& p) { return "[" + std::to_string(p.line) + "," + std::to_string(p.column) + "]"; }

void dump(const std::string& source, const Node* node, std::ostream& out, std::vector<const Node*>& ancestors) {
  const Node& n = *node->resolved();
  // `&a [*a]`: PyYAML composes a cycle; the script writes it so too.
  if (std::find(ancestors.begin(), ancestors.end(), &n) != ancestors.end()) {
    out << "{\"kind\":\"recursive\"}";
    return;
  }
  ancestors.push_back(&n);
  dumpNode(source, n, out, ancestors);
  ancestors.pop_back();
}

void dumpNode(const std::string& source, const Node& n, std::ostream& out, std::vector<const Node*>& ancestors) {
  const std::string range = "\"start\":" + position(n.range.start) + ",\"end\":" + position(n.range.end);
  switch (n.kind) {
    case NodeKind::Null:
    {
      // A null word (`~`, `null`) has its text; an empty value, or one with only `&anchor`, has none.
      const std::string_view text = std::string_view(source).substr(n.range.start.offset, n.range.end.offset - n.range.start.offset);
      const bool word = text == "~" || text == "null" || text == "Null" || text == "NULL";
      out << "{\"kind\":\"null\",\"empty\":" << (word ? "false" : "true") << "," << range << "}";
    }
      return;
    case NodeKind::Scalar:
    {
      // The style from the text: a node keeps whether it is typed from its text, not how it was written.
      const char first = source[n.range.start.offset];
      const bool plain = first != '"' && first != '\'' && first != '|' && first != '>';
      out << "{\"kind\":\"scalar\",\"value\":" << quoted(n.text) << ",\"plain\":" << (plain ? "true" : "false") << ",\"tag\":null," << range << "}";
    }
      return;
    case NodeKind::Sequence: {
      out << "{\"kind\":\"sequence\",\"flow\":" << (n.flowStyle ? "true" : "false") << ",\"items\":[";
      for (std::size_t i = 0; i < n.items.size(); ++i) {
        if (i) out << ",";
        dump(source, n.items[i], out, ancestors);
      }
      out << "]," << range << "}";
      return;
    }
    case NodeKind::Mapping: {
      out << "{\"kind\":\"mapping\",\"flow\":" << (n.flowStyle ? "true" : "false") << ",\"entries\":[";
      for (std::size_t i = 0; i < n.entries.size(); ++i) {
        out << (i ? ",[" : "[");
        dump(source, n.entries[i].key, out, ancestors);
        out << ",";
        dump(source, n.entries[i].value, out, ancestors);
        out << "]";
      }
      out << "]," << range << "}";
      return;
    }
    case NodeKind::Alias: out << "null"; return;  // an alias to nothing: the reader refuses those
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: oomlint_yaml_dump FILE.yaml\n";
    return 2;
  }
  std::ifstream file(argv[1], std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  // Read as YAML even when the text starts like JSON: JSON is YAML, and PyYAML is the reference here.
  auto source = std::make_shared<const SourceText>(text.str());
  if (const auto bad = firstInvalidUtf8(source->text())) {
    const Position at = source->positionAt(*bad);
    std::cout << "{\"error\":{\"line\":" << at.line << ",\"column\":" << at.column << ",\"message\":\"invalid UTF-8\"}}\n";
    return 0;
  }
  auto doc = readYaml(source, ReadLimits{});
  for (const auto& problem : doc->problems()) {
    if (problem.fatal || problem.code == RuleId::OL106) {
      std::cout << "{\"error\":{\"line\":" << problem.range.start.line << ",\"column\":" << problem.range.start.column
                << ",\"message\":" << quoted(problem.message) << "}}\n";
      return 0;
    }
  }
  std::cout << "{\"root\":";
  if (doc->root() != nullptr && doc->root()->expandedSize > 200'000) {
    std::cout << "\"too large\"";  // aliases copied out: the script compares the verdict alone
  } else if (doc->root() == nullptr) {
    std::cout << "null";
  } else {
    std::vector<const Node*> ancestors;
    dump(source->text(), doc->root(), std::cout, ancestors);
  }
  std::cout << "}\n";
  return 0;
}
