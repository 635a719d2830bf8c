#include <catch2/catch.hpp>

#include <string>

#include "base/document/key_path.h"
#include "base/document/reader.h"
#include "engine/edits.h"

using namespace oomlint;

namespace {

std::string slice(const Document& doc, const Range& r) {
  return doc.source().text().substr(r.start.offset, r.end.offset - r.start.offset);
}

const Node* at(const Document& doc, std::string_view path) { return valueAtPath(doc.root(), *KeyPath::parse(path)); }

std::string firstError(const Document& doc) { return doc.problems().empty() ? "" : doc.problems().front().message; }

}  // namespace

TEST_CASE("TOML: tables, arrays of tables and dotted keys build one tree with exact ranges") {
  const std::string text =
      "\xEF\xBB\xBF# sd-scripts dataset\n"
      "[general]\n"
      "shuffle_caption = true\n"
      "resolution = [1024, 768]  # W, H\n"
      "\n"
      "[[datasets]]\n"
      "batch_size = 2\n"
      "  [[datasets.subsets]]\n"
      "  image_dir = 'C:\\train\\img'\n"
      "  num_repeats = 1_0\n"
      "  [[datasets.subsets]]\n"
      "  image_dir = \"b\"\n"
      "[[datasets]]\n"
      "model.arch.name = \"flux\"\n"
      "lr = 1e-4\n"
      "inline = { a = 1, b.c = \"x\" }\n";
  const auto doc = readTomlDocument(text);
  REQUIRE(doc->problems().empty());
  CHECK(doc->format() == DocumentFormat::Toml);
  CHECK(at(*doc, "general.shuffle_caption")->boolValue);
  const Node* resolution = at(*doc, "general.resolution");
  REQUIRE(resolution->isSequence());
  CHECK(resolution->items[1]->intValue == 768);
  CHECK(slice(*doc, resolution->range) == "[1024, 768]");
  CHECK(resolution->range.start.line == 4);
  CHECK(at(*doc, "datasets[0].batch_size")->intValue == 2);
  CHECK(at(*doc, "datasets[0].subsets[0].image_dir")->text == "C:\\train\\img");
  CHECK(at(*doc, "datasets[0].subsets[0].num_repeats")->intValue == 10);
  CHECK(slice(*doc, at(*doc, "datasets[0].subsets[0].num_repeats")->range) == "1_0");
  CHECK(at(*doc, "datasets[0].subsets[1].image_dir")->text == "b");
  CHECK(at(*doc, "datasets[1].model.arch.name")->text == "flux");
  CHECK(at(*doc, "datasets[1].lr")->floatValue == Approx(1e-4));
  CHECK(at(*doc, "datasets[1].inline.b.c")->text == "x");
  // Columns count code points, lines count from the BOM's line.
  CHECK(at(*doc, "general.shuffle_caption")->range.start.column == 19);
}

TEST_CASE("TOML: strings, numbers, multi-line arrays and dates") {
  const std::string text =
      "a = \"tab\\there \\u00e9\"\n"
      "b = \"\"\"\nline one\\\n   still one\"\"\"\n"
      "c = '''\nraw \\n'''\n"
      "d = [\n  1,\n  2, # two\n]\n"
      "e = 0x1F\n"
      "f = -inf\n"
      "g = 1979-05-27T07:32:00Z\n"
      "h = +3.5e2\n"
      "i = \"\"\"two \"\"quotes\"\"\"\"\"\n";
  const auto doc = readTomlDocument(text);
  REQUIRE(doc->problems().empty());
  CHECK(at(*doc, "a")->text == "tab\there \xC3\xA9");
  CHECK(at(*doc, "b")->text == "line onestill one");
  CHECK(at(*doc, "c")->text == "raw \\n");
  CHECK(at(*doc, "d")->items.size() == 2);
  CHECK(at(*doc, "e")->intValue == 31);
  CHECK(std::isinf(at(*doc, "f")->floatValue));
  CHECK(at(*doc, "g")->text == "1979-05-27T07:32:00Z");
  CHECK(at(*doc, "h")->floatValue == Approx(350.0));
  CHECK(at(*doc, "i")->text == "two \"\"quotes\"\"");
}

TEST_CASE("TOML: malformed input is a syntax error at its line and column, never a crash") {
  struct Case {
    const char* text;
    int line;
    int column;
    const char* says;
  };
  const Case cases[] = {
      {"a = 1\na = 2\n", 2, 1, "duplicate key `a`"},
      {"[t]\nx = 1\n[t]\n", 3, 1, "defined twice"},
      {"a = \"open\n", 1, 5, "line break inside"},
      {"a = [1, 2\n", 1, 5, "unterminated array"},
      {"a = bf16\n", 1, 5, "not a TOML value"},
      {"a = 1 b = 2\n", 1, 7, "end of the line"},
      {"[a\n", 1, 3, "close the table header"},
      {"a = { x = 1, }\n", 1, 14, "trailing comma"},
      {"a = 1\n[[a]]\n", 2, 1, "cannot append"},
      {"a = \"C:\\path\"\n", 1, 8, "invalid escape"},
      {"a =\n", 1, 4, "value was expected"},
      {"= 1\n", 1, 1, "key was expected"},
      {"a.b = 1\n[a]\nc = 2\n", 2, 1, "defined twice"},
      {"a = 01\n", 1, 5, "not a TOML value"},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    const auto doc = readTomlDocument(c.text);
    REQUIRE(doc->fatal());
    CHECK(doc->problems().front().code == RuleId::OL101);
    CHECK(firstError(*doc).find(c.says) != std::string::npos);
    CHECK(doc->problems().front().range.start.line == c.line);
    CHECK(doc->problems().front().range.start.column == c.column);
  }
}

TEST_CASE("TOML: hostile nesting and sizes stop at the read limits") {
  ReadLimits limits;
  limits.maxDepth = 50;
  const auto deep = readTomlDocument("a = " + std::string(10000, '[') + "\n", limits);
  REQUIRE(deep->fatal());
  CHECK(deep->problems().front().code == RuleId::OL103);
  limits.maxNodes = 100;
  std::string many;
  for (int i = 0; i < 200; ++i) many += "k" + std::to_string(i) + " = 1\n";
  CHECK(readTomlDocument(many, limits)->problems().front().code == RuleId::OL103);
  CHECK(readTomlDocument("a = \"\xFF\"\n")->problems().front().code == RuleId::OL102);
  // Truncated at every byte: an error or a tree, never a crash or a hang.
  const std::string full = "[general]\nresolution = [1, 2]\n[[datasets]]\n  [[datasets.subsets]]\n  s = '''x'''\n";
  for (std::size_t n = 0; n <= full.size(); ++n) (void)readTomlDocument(full.substr(0, n));
}

TEST_CASE("TOML: edits replace a value or add a key line, every other byte kept") {
  const std::string text = "# cfg\r\n[train]\r\nnetwork_dim = 32 # rank\r\nfp8_base = false\r\n\r\n[other]\r\nx = 1\r\n";
  const auto doc = readTomlDocument(text);
  REQUIRE(doc->problems().empty());
  auto replace = editFor(*doc, *KeyPath::parse("train.network_dim"), "16");
  REQUIRE(replace);
  CHECK(applyEdits(text, {*replace}) == "# cfg\r\n[train]\r\nnetwork_dim = 16 # rank\r\nfp8_base = false\r\n\r\n[other]\r\nx = 1\r\n");
  auto add = editFor(*doc, *KeyPath::parse("train.blocks_to_swap"), "18");
  REQUIRE(add);
  CHECK(applyEdits(text, {*add}) == "# cfg\r\n[train]\r\nnetwork_dim = 32 # rank\r\nfp8_base = false\r\nblocks_to_swap = 18\r\n\r\n[other]\r\nx = 1\r\n");
  const auto flat = readTomlDocument("a = 1\n");
  auto top = editFor(*flat, *KeyPath::parse("b"), "\"bf16\"");
  REQUIRE(top);
  CHECK(applyEdits("a = 1\n", {*top}) == "a = 1\nb = \"bf16\"\n");
  const auto headerOnly = readTomlDocument("[general]\n");
  auto under = editFor(*headerOnly, *KeyPath::parse("general.batch_size"), "1");
  REQUIRE(under);
  CHECK(applyEdits("[general]\n", {*under}) == "[general]\nbatch_size = 1\n");
}
