// The JSON writer against the library whose output the contract and the golden files were made from:
// nlohmann::json (still linked natively, by the rules compiler and the SARIF and schema writers).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>

#include "base/document/reader.h"
#include "base/text/json_writer.h"

using namespace oomlint;

namespace {

std::string written(double x) { return JsonWriter().value(x).take(); }
std::string dumped(double x) { return nlohmann::ordered_json(x).dump(); }

}  // namespace

TEST_CASE("doubles are written as nlohmann::json wrote them") {
  for (double x : {0.0, -0.0, 1.0, -1.0, 0.1, 1e-4, 1e-5, 1.5e-7, 123456.789, 1e14, 1e15, 1e16, 1e20, 2.5e-300, 1e308,
                   4.9e-324, 0.3, 2.0 / 3.0, 24.0 * 1024 * 1024 * 1024, 9007199254740993.0}) {
    INFO(x);
    CHECK(written(x) == dumped(x));
  }
  // Seventeen digits either way: the correctly rounded ones, where Grisu2 may end one lower.
  CHECK(written(1234567890123456.7) == "1.2345678901234568e+15");
  CHECK(written(1.0) == "1.0");
  CHECK(written(1e-5) == "1e-05");
  CHECK(written(std::numeric_limits<double>::quiet_NaN()) == "null");
  CHECK(written(std::numeric_limits<double>::infinity()) == "null");
}

TEST_CASE("random doubles of every magnitude are written as nlohmann::json wrote them") {
  std::mt19937_64 rng(20261205);
  std::uniform_real_distribution<double> mantissa(1.0, 10.0);
  std::uniform_int_distribution<int> exponent(-30, 30);
  std::uniform_int_distribution<int> digits(1, 17);
  int differing = 0;
  for (int i = 0; i < 20000; ++i) {
    // Rounded to a few digits as configs write them, and at full precision as estimates compute them.
    double x = mantissa(rng) * std::pow(10.0, exponent(rng));
    const int d = digits(rng);
    if (d < 17) x = std::stod(nlohmann::ordered_json(x).dump().substr(0, static_cast<std::size_t>(d) + 1));
    if (written(x) != dumped(x)) {
      // nlohmann's Grisu2 is not always the shortest: then the two must still read back the same.
      ++differing;
      CHECK(std::stod(written(x)) == x);
      CHECK(written(x).size() <= dumped(x).size());
    }
  }
  CHECK(differing <= 200);  // rare: about 1 in 1000
}

TEST_CASE("strings are escaped as nlohmann::json escaped them, invalid UTF-8 replaced") {
  for (std::string s : {std::string("plain"), std::string("quote \" backslash \\ slash /"), std::string("\b\f\n\r\t"),
                        std::string("\x01\x1f\x7f", 3), std::string("ünïcödé 日本 😀"), std::string("a\xff" "b"),
                        std::string("a\xc0\xaf" "b"), std::string("a\xed\xa0\x80" "b"), std::string("\xe2\x82" "x"),
                        std::string("end\xe2\x82"), std::string("a\xf4\x90\x80\x80" "b"), std::string("\0nul", 4)}) {
    INFO(s);
    CHECK(jsonString(s) == nlohmann::ordered_json(s).dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
  }
}

TEST_CASE("indented and compact layouts are nlohmann::json's, empty containers included") {
  const auto build = [](JsonWriter& w) {
    w.beginObject().field("a", 1).field("b", std::vector<std::string>{"x", "y"});
    w.key("empty").beginObject().endObject();
    w.key("none").beginArray().endArray();
    w.key("nested").beginArray().beginObject().field("n", nullptr).field("t", true).endObject().value(-7).endArray();
    w.field("opt", std::optional<int>()).field("big", std::uint64_t{18446744073709551615ull});
    return w.endObject().take();
  };
  const nlohmann::ordered_json j = {{"a", 1}, {"b", {"x", "y"}}, {"empty", nlohmann::ordered_json::object()},
                                    {"none", nlohmann::ordered_json::array()},
                                    {"nested", {{{"n", nullptr}, {"t", true}}, -7}}, {"opt", nullptr},
                                    {"big", std::uint64_t{18446744073709551615ull}}};
  JsonWriter indented(2), compact;
  CHECK(build(indented) == j.dump(2));
  CHECK(build(compact) == j.dump());
}

TEST_CASE("a JSON text is written as its value, anything else as a string") {
  const auto asValue = [](std::string_view text) { return JsonWriter(2).beginArray().jsonValue(text).endArray().take(); };
  const auto viaLibrary = [](std::string_view text) {
    auto parsed = nlohmann::ordered_json::parse(text, nullptr, false);
    return nlohmann::ordered_json::array({parsed.is_discarded() ? nlohmann::ordered_json(std::string(text)) : parsed}).dump(2);
  };
  for (std::string_view text : {"4", "true", "null", "\"bf16\"", "1e-4", " [1024, 768] ", "{\"a\": [1, {\"b\": 2.50}]}",
                                "\"\\u00e9\\n\"", "-0", "12345678901234567890", "1e-4x", "'single'", "[1,]", "bf16", ""}) {
    INFO(text);
    CHECK(asValue(text) == viaLibrary(text));
  }
  // Wider than 64 bits: exact, where the library wrote the nearest double.
  CHECK(asValue("123456789012345678901234") == "[\n  123456789012345678901234\n]");
}

TEST_CASE("a parsed document is written back with its types") {
  const auto doc = readDocument("a: 1\nb: [x, 2.5, null, yes]\nc: {d: 'q'}\n");
  REQUIRE(doc->problems().empty());
  CHECK(JsonWriter().value(doc->root()).take() == R"({"a":1,"b":["x",2.5,null,true],"c":{"d":"q"}})");
}
