#include <catch2/catch.hpp>

#include "base/text/literal_set.h"
#include "base/text/release_version.h"
#include "base/text/source_text.h"
#include "base/text/suggest.h"

using namespace oomlint;

TEST_CASE("positions count lines from 1 and columns in code points") {
  SourceText text("ab\r\nçé: x\nlast");
  CHECK(text.lineCount() == 3);
  CHECK(text.positionAt(0) == Position{1, 1, 0});
  const auto p = text.positionAt(text.text().find(':'));
  CHECK(p.line == 2);
  CHECK(p.column == 3);  // "çé" is 4 bytes but 2 code points
  CHECK(text.line(2) == "çé: x");
  CHECK(text.line(1) == "ab");
  CHECK(text.positionAt(999).line == 3);
}

TEST_CASE("invalid UTF-8 is located at its first bad byte") {
  CHECK_FALSE(firstInvalidUtf8("plain ascii, ünïcödé, 日本, 😀").has_value());
  CHECK(firstInvalidUtf8("ab\xff").value() == 2);
  CHECK(firstInvalidUtf8("a\xc0\xaf").value() == 1);         // overlong
  CHECK(firstInvalidUtf8("a\xed\xa0\x80").value() == 1);     // surrogate
  CHECK(firstInvalidUtf8("a\xf4\x90\x80\x80").value() == 1); // above U+10FFFF
  CHECK(firstInvalidUtf8("\xe2\x82").value() == 0);          // truncated
}

TEST_CASE("did-you-mean finds typos, truncations and nothing for strangers") {
  const std::vector<std::string> keys = {"gradient_checkpointing", "batch_size", "noise_scheduler", "lr"};
  CHECK(closestMatch("gradient_checkpoint", keys).value() == "gradient_checkpointing");
  CHECK(closestMatch("batchsize", keys).value() == "batch_size");
  CHECK(closestMatch("noise_shceduler", keys).value() == "noise_scheduler");
  CHECK_FALSE(closestMatch("completely_different", keys).has_value());
  CHECK(editDistance("abc", "acb") == 1);
  CHECK(editDistance("", "abc") == 3);
}

TEST_CASE("columns stay exact across the code-point checkpoints of a long line") {
  std::string line;
  for (int i = 0; i < 5000; ++i) line += (i % 3 == 0) ? "é" : "a";  // 2-byte and 1-byte code points mixed
  SourceText text("x\n" + line + "\n");
  std::size_t offset = 2;
  int column = 1;
  for (std::size_t i = 0; i < line.size(); ++column) {
    const std::size_t width = (static_cast<unsigned char>(line[i]) >= 0xC0) ? 2 : 1;
    if (column % 97 == 0) {
      const Position p = text.positionAt(offset + i);
      REQUIRE(p.line == 2);
      REQUIRE(p.column == column);
    }
    i += width;
  }
  CHECK(text.positionAt(text.size()).line == 3);
}

TEST_CASE("every position and range agrees with counting from the text's start") {
  // Lines of every break (\n, \r\n, a lone \r), code points of 1 to 4 bytes, a line longer than two checkpoints.
  std::string long_line;
  for (int i = 0; i < 60; ++i) long_line += (i % 4 == 0) ? "日" : (i % 4 == 1) ? "😀" : "a";
  const std::string raw = "ab\r\nçé: x\n" + long_line + "\r" + "plain ascii line\nend é";
  const SourceText text(raw);
  // What a position is, counted from the text's start: the breaks before it, the lead bytes since the last.
  const auto reference = [&](std::size_t offset) {
    Position p{1, 1, offset};
    for (std::size_t i = 0; i < offset; ++i) {
      const bool lineBreak = raw[i] == '\n' || (raw[i] == '\r' && (i + 1 >= raw.size() || raw[i + 1] != '\n'));
      if (lineBreak) {
        ++p.line;
        p.column = 1;
      } else if ((static_cast<unsigned char>(raw[i]) & 0xC0) != 0x80) {
        ++p.column;
      }
    }
    return p;
  };
  for (std::size_t begin = 0; begin <= raw.size(); ++begin) {
    REQUIRE(text.positionAt(begin) == reference(begin));
    for (std::size_t end = begin; end <= raw.size(); ++end) {
      const Range r = text.rangeOf(begin, end);
      INFO(begin << ".." << end);
      REQUIRE(r.start == reference(begin));
      REQUIRE(r.end == reference(end));
    }
  }
  CHECK(text.rangeOf(5, 2).end == text.positionAt(5));  // an end before the start is the start
}

TEST_CASE("a literal set finds each of its words wherever it occurs, in one pass") {
  LiteralSet set;
  const auto oom = set.add("out of memory");
  const auto o = set.add("o");
  const auto killed = set.add(" Killed");
  const auto cuda = set.add("CUDA");
  CHECK(set.add("CUDA") == cuda);  // the same word, the same id
  CHECK(set.size() == 4);
  LiteralSet::Found found;
  set.find("CUDA out of memory", found);
  CHECK(found.has(oom));
  CHECK(found.has(o));
  CHECK(found.has(cuda));
  CHECK_FALSE(found.has(killed));
  set.find("step 3 Killed", found);  // `found` is reset by each search
  CHECK(found.has(killed));
  CHECK_FALSE(found.has(oom));
  CHECK_FALSE(found.has(cuda));
  set.find("CUD", found);  // a word cut at the text's end
  CHECK_FALSE(found.has(cuda));
  set.find("xo", found);  // a one-byte word at the last byte
  CHECK(found.has(o));
  set.find("", found);
  CHECK_FALSE(found.has(o));
}

TEST_CASE("release numbers compare part by part; hashes and suffixes are not releases") {
  const auto v = [](std::string_view t) { return ReleaseVersion::parse(t); };
  REQUIRE(v("0.16.4"));
  CHECK(v("0.16.4")->text() == "0.16.4");
  CHECK(v("v0.3.43") == ReleaseVersion{0, 3, 43});
  CHECK(v("0.16") == ReleaseVersion{0, 16, 0});
  CHECK(*v("0.16.0") > *v("0.3.65"));  // not as text: "0.16" sorts before "0.3"
  CHECK(*v("0.16.3") < *v("0.16.4"));
  for (std::string_view bad : {"", "v", "0", "5dcda71011870278c35d92ff77a677ed2e538f2d", "0.16.4rc1", "0..1", "1.2.3.4", "0.16.",
                               "1234567.0.0"}) {
    CHECK_FALSE(v(bad));
  }
}
