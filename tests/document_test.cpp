#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "base/document/key_path.h"
#include "base/document/reader.h"

using namespace oomlint;

namespace {

const Node* value(const Document& doc, std::initializer_list<std::string_view> path) {
  const Node* n = doc.root();
  for (auto key : path) n = n ? n->find(key) : nullptr;
  return n;
}

std::string slice(const Document& doc, const Range& r) {
  return doc.source().text().substr(r.start.offset, r.end.offset - r.start.offset);
}

}  // namespace

TEST_CASE("plain scalars are typed as AI Toolkit's loader types them") {
  struct Case {
    const char* text;
    ScalarType type;
  };
  const Case cases[] = {
      {"1e-4", ScalarType::Float},  {"1E5", ScalarType::Float},   {"1.5", ScalarType::Float},
      {".5", ScalarType::Float},    {"1.0e-4", ScalarType::Float}, {"1.0e4", ScalarType::String},  // PyYAML needs the sign
      {"-.inf", ScalarType::Float}, {".nan", ScalarType::Float},  {"1_000", ScalarType::Int},
      {"0x1f", ScalarType::Int},    {"010", ScalarType::Int},     {"1:30", ScalarType::Int},
      {"yes", ScalarType::Bool},    {"Off", ScalarType::Bool},    {"TRUE", ScalarType::Bool},
      {"~", ScalarType::Null},      {"null", ScalarType::Null},   {"bf16", ScalarType::String},
      {"0.0.1", ScalarType::String}, {"y", ScalarType::String},   {"1e", ScalarType::String},
  };
  for (const auto& c : cases) {
    auto doc = readDocument(std::string("v: ") + c.text + "\n");
    const Node* v = value(*doc, {"v"});
    INFO(c.text);
    REQUIRE(v != nullptr);
    CHECK(v->resolved()->type == c.type);
  }
  auto doc = readDocument("a: 1:30\nb: 010\nc: 1e-4\nd: \"true\"\ne: !!str 5\nf: !!float 2\n");
  CHECK(value(*doc, {"a"})->intValue == 90);
  CHECK(value(*doc, {"b"})->intValue == 8);
  CHECK(value(*doc, {"c"})->floatValue == Approx(1e-4));
  CHECK(value(*doc, {"d"})->type == ScalarType::String);
  CHECK(value(*doc, {"e"})->type == ScalarType::String);
  CHECK(value(*doc, {"f"})->type == ScalarType::Float);
}

TEST_CASE("every key and value keeps its exact range") {
  const std::string text =
      "train:\n"
      "  batch_size: 4   # comment\n"
      "  name: \"quoted \\\" value\"\n"
      "  other: 'it''s'\n"
      "  flow: [1, {a: b}, x y]\n"
      "  plain: multi\n"
      "    line value\n"
      "  block: |\n"
      "    line one\n"
      "    line two\n"
      "\n"
      "  after: &anchor ünï\n"
      "  ref: *anchor\n"
      "  empty:\n"
      "list:\n"
      "  - item\n";
  auto doc = readDocument(text);
  REQUIRE_FALSE(doc->fatal());
  const Node* train = doc->root()->find("train");
  const MapEntry* batch = train->findEntry("batch_size");
  CHECK(slice(*doc, batch->key->range) == "batch_size");
  CHECK(batch->key->range.start.line == 2);
  CHECK(batch->key->range.start.column == 3);
  CHECK(batch->key->range.end.column == 13);
  CHECK(slice(*doc, batch->value->range) == "4");
  CHECK(slice(*doc, train->find("name")->range) == "\"quoted \\\" value\"");
  CHECK(slice(*doc, train->find("other")->range) == "'it''s'");
  CHECK(slice(*doc, train->find("flow")->range) == "[1, {a: b}, x y]");
  CHECK(slice(*doc, train->find("flow")->items[2]->range) == "x y");
  CHECK(slice(*doc, train->find("plain")->range) == "multi\n    line value");
  CHECK(slice(*doc, train->find("block")->range) == "|\n    line one\n    line two");
  const Node* after = train->find("after");
  CHECK(slice(*doc, after->range) == "ünï");
  CHECK(after->range.start.column == 18);
  CHECK(after->range.end.column == 21);
  CHECK(train->find("ref")->resolved()->text == "ünï");
  const Node* empty = train->find("empty");
  CHECK(empty->isNull());
  CHECK(empty->range.start.line == 14);
  CHECK(slice(*doc, doc->root()->find("list")->items[0]->range) == "item");
}

TEST_CASE("merge keys are followed and explicit keys win") {
  auto doc = readDocument("base: &b {x: 1, y: 2}\nuse:\n  <<: *b\n  y: 3\n");
  const Node* use = doc->root()->find("use");
  CHECK(use->find("x")->intValue == 1);
  CHECK(use->find("y")->intValue == 3);
  CHECK(use->allEntries().size() == 2);
}

TEST_CASE("merge keys take precedence as PyYAML's flatten_mapping gives it") {
  // Of `<<: [*a, *b]` the first mapping wins; a merged mapping's own merges lose to its keys.
  auto doc = readDocument(
      "a: &a {x: a, z: a}\n"
      "b: &b {x: b, y: b, <<: {w: inner, y: inner}}\n"
      "use:\n  <<: [*a, *b]\n  z: own\n");
  const Node* use = doc->root()->find("use");
  CHECK(use->find("x")->text == "a");
  CHECK(use->find("y")->text == "b");
  CHECK(use->find("z")->text == "own");
  CHECK(use->find("w")->text == "inner");
  std::vector<std::string> winners;
  for (const MapEntry& entry : use->allEntries()) winners.push_back(entry.key->text + "=" + entry.value->text);
  std::sort(winners.begin(), winners.end());
  CHECK(winners == std::vector<std::string>{"w=inner", "x=a", "y=b", "z=own"});
}

TEST_CASE("merge keys that fan out are followed once per mapping") {
  // 30 levels, each merging the one below ten times: 10^29 paths, one mapping each.
  std::string text = "l0: &a0 {x: 1}\n";
  for (int i = 1; i < 30; ++i) {
    text += "l" + std::to_string(i) + ": &a" + std::to_string(i) + " {<<: [";
    for (int j = 0; j < 10; ++j) text += (j ? ", *a" : "*a") + std::to_string(i - 1);
    text += "], y" + std::to_string(i) + ": 0}\n";
  }
  auto doc = readDocument(text);
  const Node* top = doc->root()->find("l29");
  CHECK(top->find("absent") == nullptr);
  // Merges deeper than 16 levels are not followed.
  CHECK(top->find("y20") != nullptr);
  CHECK(top->find("x") == nullptr);
  CHECK(top->allEntries().size() == 17);
}

TEST_CASE("YAML problems: syntax, duplicates, documents, limits") {
  auto bad = readDocument("a: [1, 2\nb: 3\n");
  REQUIRE(bad->fatal());
  CHECK(bad->problems().front().code == "OL101");

  auto dup = readDocument("a: 1\nb: 2\na: 3\n");
  REQUIRE(dup->problems().size() == 1);
  CHECK(dup->problems().front().code == "OL104");
  CHECK(dup->problems().front().range.start.line == 3);
  CHECK(dup->root()->find("a")->intValue == 3);

  // A lenient reader accepts these two; PyYAML does not, so neither does AI Toolkit.
  auto stray = readDocument("a:\n  b: 1\n  stray\n");
  REQUIRE(stray->fatal());
  CHECK(stray->problems().front().code == "OL101");
  CHECK(stray->problems().front().range.start.line == 3);
  CHECK(stray->problems().front().range.end.column == 8);
  auto eofQuote = readDocument("a: 1\nb: 'open\n");
  REQUIRE(eofQuote->fatal());
  CHECK(eofQuote->problems().front().range.start.line == 2);
  // These are all valid: a flow mapping's lone key, an explicit key, a quoted key and an alias key.
  auto keys = readDocument("base: &k k\nflow: {a, b: 1}\n? complex\n: 1\n\"q\" : 2\n*k : 3\n");
  CHECK(keys->problems().empty());

  std::string many = "m:\n";
  for (int i = 0; i < 100000; ++i) many += "  k" + std::to_string(i) + ": 0\n";
  auto manyKeys = readDocument(many + "  k7: 1\n");
  REQUIRE(manyKeys->problems().size() == 1);
  CHECK(manyKeys->problems().front().message.find("first at line 9)") != std::string::npos);

  auto docs = readDocument("a: 1\n---\nb: 2\n");
  REQUIRE(docs->problems().size() == 1);
  CHECK(docs->problems().front().code == "OL106");
  CHECK(docs->problems().front().range.start.line == 2);

  auto deep = readDocument(std::string(5000, '[') + std::string(5000, ']'));
  REQUIRE(deep->fatal());
  CHECK(deep->problems().front().code == "OL103");

  std::string nested = "a:\n";
  for (int i = 0; i < 200; ++i) nested += std::string(static_cast<std::size_t>(2 * i + 2), ' ') + "k:\n";
  auto deepBlock = readDocument(nested);
  CHECK(deepBlock->problems().front().code == "OL103");

  ReadLimits small;
  small.maxBytes = 10;
  auto big = readDocument("a: 123456789012345\n", small);
  CHECK(big->problems().front().code == "OL103");

  auto binary = readDocument(std::string("a: \xff\xfe\n"));
  CHECK(binary->problems().front().code == "OL102");
  CHECK(binary->problems().front().range.start.column == 4);
  CHECK(binary->problems().front().message.find("byte 0xFF at this position") != std::string::npos);
}

TEST_CASE("an alias bomb stays a handful of nodes") {
  std::string bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n";
  for (char c = 'b'; c <= 'j'; ++c) {
    bomb += std::string(1, c) + ": &" + c + " [";
    for (int i = 0; i < 9; ++i) bomb += std::string(i ? ", " : "") + "*" + static_cast<char>(c - 1);
    bomb += "]\n";
  }
  auto doc = readDocument(bomb);
  REQUIRE_FALSE(doc->fatal());
  CHECK(doc->nodeCount() < 300);
}

TEST_CASE("an unclosed quote is reported at the opening quote") {
  auto doc = readDocument("model:\n  name_or_path: \"a/b\n  arch: \"flux\"\n  quantize: true\n");
  REQUIRE(doc->fatal());
  const auto& p = doc->problems().front();
  CHECK(p.code == "OL101");
  CHECK(p.range.start.line == 2);
  CHECK(p.range.start.column == 17);
  CHECK(p.message.find("unclosed quote") != std::string::npos);
}

TEST_CASE("strict JSON with positions") {
  const std::string text = "{\n  \"job\": \"extension\",\n  \"n\": [1, 2.5, true, null, \"\\u00e9\\ud83d\\ude00\"]\n}";
  auto doc = readDocument(text);
  REQUIRE(doc->format() == DocumentFormat::Json);
  REQUIRE_FALSE(doc->fatal());
  const MapEntry* job = doc->root()->findEntry("job");
  CHECK(job->key->range.start.line == 2);
  CHECK(job->key->range.start.column == 3);
  CHECK(slice(*doc, job->value->range) == "\"extension\"");
  const Node* n = doc->root()->find("n");
  CHECK(n->items[0]->type == ScalarType::Int);
  CHECK(n->items[1]->type == ScalarType::Float);
  CHECK(n->items[2]->type == ScalarType::Bool);
  CHECK(n->items[3]->type == ScalarType::Null);
  CHECK(n->items[4]->text == "é😀");

  struct Bad {
    const char* text;
    int line;
    int column;
  };
  const Bad bad[] = {
      {"{\"a\": 1,}", 1, 9},
      {"{\"a\": 1\n \"b\": 2}", 2, 2},
      {"{\"a\": \"open}", 1, 7},
      {"{\n  // no comments\n}", 2, 3},
      {"{\"a\": 01}", 1, 8},
      {"[1, 2", 1, 6},
  };
  for (const auto& b : bad) {
    INFO(b.text);
    auto d = readDocument(b.text);
    REQUIRE(d->fatal());
    CHECK(d->problems().front().code == "OL101");
    CHECK(d->problems().front().range.start.line == b.line);
    CHECK(d->problems().front().range.start.column == b.column);
  }
  auto deep = readDocument(std::string(100000, '[') + std::string(100000, ']'));
  CHECK(deep->problems().front().code == "OL103");
  auto dup = readDocument("{\"a\": 1, \"a\": 2}");
  CHECK(dup->problems().front().code == "OL104");
}

TEST_CASE("a key path is built from segments, printed once and read back the same") {
  const KeyPath path = KeyPath::of({"config", "process"}).item(0).key("datasets").item(1).key("resolution");
  CHECK(path.toString() == "config.process[0].datasets[1].resolution");
  CHECK(KeyPath::parse(path.toString()) == path);
  CHECK(path.lastKey() == "resolution");
  CHECK(path.parent().toString() == "config.process[0].datasets[1]");
  // A key that is not a plain name stays one key.
  const KeyPath dotted = KeyPath::of({"model_kwargs"}).key("a.b[0]");
  CHECK(dotted.toString() == "model_kwargs[\"a.b[0]\"]");
  CHECK(KeyPath::parse(dotted.toString()) == dotted);
  CHECK(KeyPath::parse("nodes[123456789].widgets_values[12]") == KeyPath::of({"nodes"}).item(123456789).key("widgets_values").item(12));
  for (std::string_view bad : {"a..b", "a.", "a[", "a[x]", "a[]", ".a", "a[\"b", "a[1234567890]"}) {
    INFO(bad);
    CHECK_FALSE(KeyPath::parse(bad));
  }
}

TEST_CASE("a key path finds the value it names, or the deepest key that is written") {
  const auto doc = readDocument("train:\n  lr: 1\nd:\n  - resolution: [512]\n  - {x.y: 2}\n");
  const Node* root = doc->root();
  CHECK(valueAtPath(root, *KeyPath::parse("train.lr"))->text == "1");
  CHECK(valueAtPath(root, KeyPath::of({"d"}).item(1).key("x.y"))->text == "2");
  CHECK(valueAtPath(root, *KeyPath::parse("d[2].resolution")) == nullptr);
  CHECK(rangeOfPath(root, *KeyPath::parse("train.batch_size")).start.line == 1);  // the `train` key
  CHECK(rangeOfPath(root, *KeyPath::parse("d[1]")).start.line == 5);
}

TEST_CASE("scalarTexts: a scalar's text or a list's scalar items, nothing for null, a mapping or an absent key") {
  auto doc = readDocument("one: attn.\nlist: [a, ~, {x: 1}, 2]\nnone: ~\nmap: {a: b}\n");
  const Node* root = doc->root();
  CHECK(scalarTexts(root->find("one")) == std::vector<std::string>{"attn."});
  CHECK(scalarTexts(root->find("list")) == std::vector<std::string>{"a", "2"});
  CHECK(scalarTexts(root->find("none")).empty());
  CHECK(scalarTexts(root->find("map")).empty());
  CHECK(scalarTexts(root->find("absent")).empty());
}

TEST_CASE("the YAML reader decodes every scalar style as PyYAML does") {
  auto doc = readDocument(
      "dq: \"tab\\there \\u00e9\\x41 \\\n  continued\"\n"
      "sq: 'it''s\n\n  folded'\n"
      "lit: |-\n  one\n   two\n\n"
      "fold: >\n  a\n  b\n\n  c\n    indented\n"
      "keep: |+\n  x\n\n"
      "plain: a\n  b\n\n  c\n"
      "bang: ! 12\n"
      "colon: {a:1}\n");
  REQUIRE_FALSE(doc->fatal());
  CHECK(value(*doc, {"dq"})->text == "tab\there \xC3\xA9" "A continued");
  CHECK(value(*doc, {"sq"})->text == "it's\nfolded");
  CHECK(value(*doc, {"lit"})->text == "one\n two");
  CHECK(value(*doc, {"fold"})->text == "a b\nc\n  indented\n");
  CHECK(value(*doc, {"keep"})->text == "x\n\n");
  CHECK(value(*doc, {"plain"})->text == "a b\nc");
  // The non-specific tag `!` leaves a plain scalar implicitly typed.
  CHECK(value(*doc, {"bang"})->type == ScalarType::Int);
  // In a flow mapping `a:1` (no space) is one plain key with a null value.
  CHECK(doc->root()->find("colon")->entries.at(0).key->text == "a:1");
  CHECK(doc->root()->find("colon")->entries.at(0).value->isNull());
  CHECK(slice(*doc, doc->root()->find("lit")->range) == "|-\n  one\n   two");
}

TEST_CASE("the YAML reader's collections: indentless lists, compact nesting, explicit keys, single pairs") {
  auto doc = readDocument(
      "list:\n- a\n- b: 1\n  c: 2\n- - x\n  - y\n"
      "? [k, l]\n: v\n"
      "pairs: [a: 1, {b: 2}, c]\n"
      "--- ignored\n");
  REQUIRE_FALSE(doc->fatal());
  const Node* list = doc->root()->find("list");
  REQUIRE(list->items.size() == 3);
  CHECK(list->flowStyle == false);
  CHECK(list->items[1]->find("c")->intValue == 2);
  CHECK(list->items[2]->items[1]->text == "y");
  const MapEntry& complex = doc->root()->entries.at(1);
  CHECK(complex.key->kind == NodeKind::Sequence);
  CHECK(complex.value->text == "v");
  const Node* pairs = doc->root()->find("pairs");
  REQUIRE(pairs->items.size() == 3);
  CHECK(pairs->items[0]->isMapping());
  CHECK(pairs->items[0]->find("a")->intValue == 1);
  CHECK(slice(*doc, pairs->range) == "[a: 1, {b: 2}, c]");
  REQUIRE(doc->problems().size() == 1);
  CHECK(doc->problems().front().code == "OL106");
}

TEST_CASE("the YAML reader refuses what PyYAML refuses, at the place, in PyYAML's words") {
  struct Case {
    const char* text;
    int line;
    int column;
    const char* words;
  };
  const Case cases[] = {
      {"a: 1\t# one\n", 1, 5, "found character '\\t' that cannot start any token"},
      {"a:\n\tb: 1\n", 2, 1, "a tab is used for indentation"},
      {"a: &x 1\nb: &x 2\n", 2, 4, "found duplicate anchor"},
      {"a: *nowhere\n", 1, 4, "found undefined alias"},
      {"a: b: c\n", 1, 5, "mapping values are not allowed here"},
      {"a:\n  - 1\n - 2\n", 3, 2, "expected <block end>"},
      {"a: \"\\q\"\n", 1, 5, "found unknown escape character"},
      {"a: \"\\\xC3\xA9\"\n", 1, 5, "followed by `\xC3\xA9` is not an escape"},  // the character whole, not its first byte
      {"a: @b\n", 1, 4, "found character that cannot start any token"},
      {"a: [1, 2\n", 2, 1, "expected ',' or ']'"},
      {"%YAML 2.0\n---\na: 1\n", 1, 1, "found incompatible YAML document"},
      {"a: !e!x 1\n", 1, 4, "found undefined tag handle"},
      {"a: 1\n\x01\n", 2, 1, "special characters are not allowed"},
      {"a: 1\n\x1b\n", 2, 1, "(byte 0x1B)"},
      {"k: |0\n  x\n", 1, 5, "expected indentation indicator in the range 1-9"},
  };
  for (const auto& c : cases) {
    auto doc = readDocument(c.text);
    INFO(c.text);
    REQUIRE(doc->fatal());
    const ReadProblem& p = doc->problems().front();
    CHECK(p.code == "OL101");
    CHECK(p.range.start.line == c.line);
    CHECK(p.range.start.column == c.column);
    CHECK(p.message.find(c.words) != std::string::npos);
    CHECK_FALSE(firstInvalidUtf8(p.message).has_value());
  }
  // A key longer than 1024 characters is not a simple key: its `:` is then out of place.
  auto longKey = readDocument(std::string(1100, 'k') + ": 1\n");
  CHECK(longKey->fatal());
  auto tagged = readDocument("%TAG !e! tag:example.com,2000:\n---\na: !e!x 1\n");
  CHECK_FALSE(tagged->fatal());
}

TEST_CASE("a key glued to its value by a colon is named, not the line after it") {
  // `batch_size:4` is one plain word to YAML; PyYAML stops at the next line's `:` or at the end of the mapping.
  for (const char* text : {"train:\n  batch_size:4\n  steps: 100\n", "train:\n  steps: 100\n  batch_size:4\n"}) {
    auto doc = readDocument(text);
    INFO(text);
    REQUIRE(doc->fatal());
    const ReadProblem& p = doc->problems().front();
    CHECK(slice(*doc, p.range) == "batch_size:4");
    CHECK(p.message.find("needs a space after its colon (`batch_size: 4`)") != std::string::npos);
  }
  // A URL's colons are not a key's: the message stays PyYAML's.
  auto url = readDocument("a:\n  url: http://x:8080/y\n   b: 1\n");
  REQUIRE(url->fatal());
  CHECK(url->problems().front().message.find("needs a space") == std::string::npos);
  CHECK(url->problems().front().message.find("mapping values are not allowed here") != std::string::npos);
  // An unclosed `{` names the line it opened on.
  auto flow = readDocument("config:\n  train: {lr: 1e-4, steps: 100\n  save: {}\n");
  REQUIRE(flow->fatal());
  CHECK(flow->problems().front().message.find("the `{` mapping opened on line 2") != std::string::npos);
}
