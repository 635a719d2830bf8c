#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "base/text/decimal_text.h"

using namespace oomlint;

namespace {

// glibc's printf rounds the exact binary value, ties to even: the reference the formatter must match byte for byte.
std::string printed(const char* format, int precision, double value) {
  char buf[1200];
  std::snprintf(buf, sizeof buf, format, precision, value);
  return buf;
}

double fromBits(std::uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

// Every kind of double: any bit pattern (subnormals and the extremes), exact ties at several scales (k / 2^n, where
// printf's tie-breaking shows), whole numbers, and figures the size of a report's.
std::vector<double> samples() {
  std::mt19937_64 random(20261207);
  std::vector<double> out = {0.0, -0.0, 0.5, 1.5, 2.5, -2.5, 0.125, 0.375, 1e-5, 9.5, 99.5, 999.5, 0.05, 0.15, 0.25,
                             0.35, 1e15, 1e16, 123456789012345678.0, 5e-324, -5e-324, 2.2250738585072014e-308,
                             std::numeric_limits<double>::max(), -std::numeric_limits<double>::max(), 9.999999999,
                             0.9999995, 999999.5, 1e-4, 9.99995e-5, 100000.0, 1000000.0};
  for (int i = 0; i < 1500; ++i) {
    const double d = fromBits(random());
    if (std::isfinite(d)) out.push_back(d);
  }
  std::uniform_int_distribution<int> shift(1, 30);
  for (int i = 0; i < 4000; ++i) out.push_back(std::ldexp(static_cast<double>(random() % 100000), -shift(random)));
  std::uniform_real_distribution<double> exponent(-7, 16);
  for (int i = 0; i < 8000; ++i) {
    const double d = std::pow(10.0, exponent(random)) * (random() % 2 ? 1 : -1);
    out.push_back(d);
    out.push_back(std::round(d));
  }
  return out;
}

// "%.*e" from the digits significantDigits gives, to hold its rounding against printf's.
std::string asScientific(const DecimalDigits& d, double value, int decimals) {
  std::string out = std::signbit(value) ? "-" : "";
  const auto digit = [&](int i) { return i < static_cast<int>(d.digits.size()) ? d.digits[static_cast<std::size_t>(i)] : '0'; };
  out += digit(0);
  if (decimals > 0) out += '.';
  for (int i = 1; i <= decimals; ++i) out += digit(i);
  return out + exponentText(d.digits.empty() ? 0 : d.point - 1);
}

}  // namespace

TEST_CASE("numbers are written byte for byte as printf writes them") {
  for (const double d : samples()) {
    INFO(printed("%.*e", 17, d));
    for (int decimals : {0, 1, 2, 3, 4, 6, 9, 17}) REQUIRE(fixedText(d, decimals) == printed("%.*f", decimals, d));
    for (int decimals : {0, 1, 2, 5, 16, 17}) REQUIRE(asScientific(significantDigits(d, decimals + 1), d, decimals) == printed("%.*e", decimals, d));
    for (int significant : {1, 2, 6, 17}) REQUIRE(generalText(d, significant) == printed("%.*g", significant, d));
  }
}

TEST_CASE("the shortest digits read back exactly and are the fewest printf's rounding gives") {
  for (const double d : samples()) {
    if (d == 0) continue;
    const DecimalDigits shortest = shortestDigits(d);
    INFO(printed("%.*e", 17, d) << " -> 0." << shortest.digits << "e" << shortest.point);
    REQUIRE(std::strtod(("0." + shortest.digits + "e" + std::to_string(shortest.point)).c_str(), nullptr) == std::fabs(d));
    const int n = static_cast<int>(shortest.digits.size());
    if (n > 1) {
      const DecimalDigits fewer = significantDigits(d, n - 1);
      CHECK(std::strtod(("0." + fewer.digits + "e" + std::to_string(fewer.point)).c_str(), nullptr) != std::fabs(d));
    }
  }
  CHECK(shortestDigits(0.1).digits == "1");
  CHECK(shortestDigits(0.1).point == 0);
  CHECK(shortestDigits(-1234.5).digits == "12345");
  CHECK(shortestDigits(-1234.5).point == 4);
}

TEST_CASE("infinities, NaNs and hexadecimal are written as printf writes them") {
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(fixedText(inf, 2) == "inf");
  CHECK(fixedText(-inf, 1) == "-inf");
  CHECK(generalText(std::numeric_limits<double>::quiet_NaN()) == "nan");
  CHECK(exponentText(5) == "e+05");
  CHECK(exponentText(-123) == "e-123");
  CHECK(hexText(0, 2) == "00");
  CHECK(hexText(0x1f, 4) == "001f");
  CHECK(hexText(0xAB, 2, true) == "AB");
  CHECK(hexText(0xfedcba9876543210ull, 16) == "fedcba9876543210");
  CHECK(hexText(0x123, 1) == "123");
}
