// The YAML reader's tree as JSON, for scripts/yaml-differential.py to compare with PyYAML's composed
// tree: kinds, decoded values, styles and exact positions. Aliases are written out as their targets.
#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

#include "base/document/reader.h"
#include "base/text/json_writer.h"

using namespace oomlint;

namespace {

class TreeDump {
 public:
  explicit TreeDump(const std::string& source) : source_(source) {}

  void node(const Node* node) {
    const Node& n = *node->resolved();
    // `&a [*a]`: PyYAML composes a cycle; the script writes it so too.
    if (std::find(ancestors_.begin(), ancestors_.end(), &n) != ancestors_.end()) {
      out_.beginObject().field("kind", "recursive").endObject();
      return;
    }
    ancestors_.push_back(&n);
    out_.beginObject();
    contents(n);
    out_.key("start");
    position(n.range.start);
    out_.key("end");
    position(n.range.end);
    out_.endObject();
    ancestors_.pop_back();
  }

  JsonWriter& out() { return out_; }

 private:
  void contents(const Node& n) {
    switch (n.kind) {
      case NodeKind::Null: {
        // A null word (`~`, `null`) has its text; an empty value, or one with only `&anchor`, has none.
        const std::string_view text = std::string_view(source_).substr(n.range.start.offset, n.range.end.offset - n.range.start.offset);
        out_.field("kind", "null").field("empty", !(text == "~" || text == "null" || text == "Null" || text == "NULL"));
        return;
      }
      case NodeKind::Scalar: {
        // The style from the text: a node keeps whether it is typed from its text, not how it was written.
        const char first = source_[n.range.start.offset];
        out_.field("kind", "scalar").field("value", n.text);
        out_.field("plain", first != '"' && first != '\'' && first != '|' && first != '>').field("tag", nullptr);
        return;
      }
      case NodeKind::Sequence:
        out_.field("kind", "sequence").field("flow", n.flowStyle).key("items").beginArray();
        for (const Node* item : n.items) node(item);
        out_.endArray();
        return;
      case NodeKind::Mapping:
        out_.field("kind", "mapping").field("flow", n.flowStyle).key("entries").beginArray();
        for (const MapEntry& entry : n.entries) {
          out_.beginArray();
          node(entry.key);
          node(entry.value);
          out_.endArray();
        }
        out_.endArray();
        return;
      case NodeKind::Alias: out_.field("kind", "alias"); return;  // an alias to nothing: the reader refuses those
    }
  }

  void position(const Position& p) { out_.beginArray().value(p.line).value(p.column).endArray(); }

  const std::string& source_;
  JsonWriter out_;
  std::vector<const Node*> ancestors_;
};

void printError(const Position& at, std::string_view message) {
  JsonWriter out;
  out.beginObject().key("error").beginObject().field("line", at.line).field("column", at.column).field("message", message);
  out.endObject().endObject();
  std::cout << out.take() << "\n";
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
    printError(source->positionAt(*bad), "invalid UTF-8");
    return 0;
  }
  auto doc = readYaml(source, ReadLimits{});
  for (const auto& problem : doc->problems()) {
    if (problem.fatal || problem.code == RuleId::OL106) {
      printError(problem.range.start, problem.message);
      return 0;
    }
  }
  TreeDump dump(source->text());
  dump.out().beginObject().key("root");
  if (doc->root() == nullptr) {
    dump.out().value(nullptr);
  } else if (doc->root()->expandedSize > 200'000) {
    dump.out().value("too large");  // aliases copied out: the script compares the verdict alone
  } else {
    dump.node(doc->root());
  }
  dump.out().endObject();
  std::cout << dump.out().take() << "\n";
  return 0;
}
