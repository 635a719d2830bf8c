#include "base/text/decimal_text.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace oomlint {

namespace {

// A finite |x| as the integer m < 2^53 times 2^e.
struct Binary {
  std::uint64_t m;
  int e;
};
Binary binary(double x) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &x, sizeof bits);  // Emscripten's libc++ has no std::bit_cast
  const auto biased = static_cast<int>(bits >> 52 & 0x7ff);
  const std::uint64_t fraction = bits & ((std::uint64_t{1} << 52) - 1);
  if (biased == 0) return {fraction, -1074};  // subnormal
  return {fraction | std::uint64_t{1} << 52, biased - 1075};
}

// "%.*f" of a finite value for up to three decimals, from 64-bit integers, where the scaled value fits one: m × 10^3 is
// under 2^63, so value × 10^decimals = m × 10^decimals × 2^e is exact, and so is the comparison of what the shift
// drops with half. Nearly every figure a report prints; the general path below does the rest.
bool appendShortFixed(std::string& out, double value, int decimals) {
  static constexpr std::uint64_t kScale[] = {1, 10, 100, 1000};
  if (decimals > 3) return false;
  auto [m, e] = binary(value);
  std::uint64_t n = m * kScale[decimals];
  if (e >= 0) {
    if (e >= 64 || n >> (63 - e) != 0) return false;
    n <<= e;
  } else if (e <= -64) {
    n = 0;  // under 2^63 / 2^64: rounds to zero
  } else {
    const std::uint64_t dropped = n & ((std::uint64_t{1} << -e) - 1);
    const std::uint64_t half = std::uint64_t{1} << (-e - 1);
    n >>= -e;
    if (dropped > half || (dropped == half && n % 2 == 1)) ++n;
  }
  char buf[24];
  char* end = std::to_chars(buf, buf + sizeof buf, n / kScale[decimals]).ptr;
  if (decimals > 0) *end++ = '.';
  for (int i = decimals - 1; i >= 0; --i, n /= 10) end[i] = static_cast<char>('0' + n % 10);
  out.append(buf, end + decimals);
  return true;
}

// The exact decimal digits of a finite, nonzero |x|. x = m × 2^e with m < 2^53 is the integer m × 2^e (e ≥ 0) or
// m × 5^-e × 10^e (e < 0): an integer, built in base 10^9, times a power of ten. The longest, m × 5^1074 for a
// double near the smallest normal one, has 767 digits.
class Expansion {
 public:
  explicit Expansion(double x) {
    auto [m, e] = binary(x);
    for (; m % 2 == 0 && e < 0; m /= 2) ++e;
    limbs_[0] = static_cast<std::uint32_t>(m % kBase);
    limbs_[1] = static_cast<std::uint32_t>(m / kBase);
    used_ = limbs_[1] != 0 ? 2 : 1;
    for (int k = e; k > 0; k -= 29) multiply(std::uint32_t{1} << std::min(k, 29));
    for (int k = -e; k > 0; k -= 13) multiply(kPow5[std::min(k, 13)]);
    point_ = writeDigits() + std::min(e, 0);
  }

  int point() const { return point_; }

  // The first `keep` digits (any count, ≤ 0 too), rounded half to even on the exact value, trailing zeros dropped.
  DecimalDigits rounded(int keep) const {
    DecimalDigits out;
    out.point = point_;
    if (keep >= count_) {
      out.digits.assign(digits_.data(), static_cast<std::size_t>(count_));
      return out;
    }
    if (keep < 0) return out;
    const char next = digits_[static_cast<std::size_t>(keep)];
    const bool moreAfter = count_ > keep + 1;  // the last digit is not 0, so anything after `next` is above zero
    const bool odd = keep > 0 && (digits_[static_cast<std::size_t>(keep) - 1] - '0') % 2 == 1;
    const bool up = next > '5' || (next == '5' && (moreAfter || odd));
    out.digits.assign(digits_.data(), static_cast<std::size_t>(keep));
    const char drop = up ? '9' : '0';
    while (!out.digits.empty() && out.digits.back() == drop) out.digits.pop_back();
    if (!up) return out;
    if (out.digits.empty()) {
      out.digits = "1";
      ++out.point;
    } else {
      ++out.digits.back();
    }
    return out;
  }

 private:
  static constexpr std::uint32_t kBase = 1'000'000'000;
  static constexpr std::uint32_t kPow5[] = {1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125, 9765625,
                                            48828125, 244140625, 1220703125};

  // factor ≤ 5^13: a limb times it plus the carry stays under 2^64.
  void multiply(std::uint32_t factor) {
    std::uint64_t carry = 0;
    for (int i = 0; i < used_; ++i) {
      const std::uint64_t t = std::uint64_t{limbs_[static_cast<std::size_t>(i)]} * factor + carry;
      limbs_[static_cast<std::size_t>(i)] = static_cast<std::uint32_t>(t % kBase);
      carry = t / kBase;
    }
    for (; carry != 0; carry /= kBase) limbs_[static_cast<std::size_t>(used_++)] = static_cast<std::uint32_t>(carry % kBase);
  }

  // Writes the digits, trailing zeros dropped; returns how many there were with them.
  int writeDigits() {
    char* out = digits_.data();
    out = std::to_chars(out, out + 10, limbs_[static_cast<std::size_t>(used_ - 1)]).ptr;
    for (int i = used_ - 2; i >= 0; --i) {
      std::uint32_t limb = limbs_[static_cast<std::size_t>(i)];
      for (int k = 8; k >= 0; --k, limb /= 10) out[k] = static_cast<char>('0' + limb % 10);
      out += 9;
    }
    const int all = static_cast<int>(out - digits_.data());
    for (count_ = all; digits_[static_cast<std::size_t>(count_) - 1] == '0';) --count_;
    return all;
  }

  std::array<std::uint32_t, 88> limbs_{};
  std::array<char, 88 * 9> digits_{};
  int used_ = 0;
  int count_ = 0;
  int point_ = 0;
};

// What printf writes for infinities and NaNs, or nothing for a finite value.
bool appendNonFinite(std::string& out, double value) {
  if (std::isfinite(value)) return false;
  if (std::signbit(value)) out += '-';
  out += std::isnan(value) ? "nan" : "inf";
  return true;
}

char digitAt(const DecimalDigits& d, int i) {
  return i >= 0 && i < static_cast<int>(d.digits.size()) ? d.digits[static_cast<std::size_t>(i)] : '0';
}

}  // namespace

DecimalDigits significantDigits(double value, int count) {
  if (value == 0 || !std::isfinite(value)) return {};
  return Expansion(value).rounded(std::max(count, 1));
}

DecimalDigits shortestDigits(double value) {
  if (value == 0 || !std::isfinite(value)) return {};
  const Expansion exact(value);
  DecimalDigits d;
  for (int count = 1; count <= 17; ++count) {
    d = exact.rounded(count);
    char text[48] = "0.";
    char* end = std::copy(d.digits.begin(), d.digits.end(), text + 2);
    *end++ = 'e';
    *std::to_chars(end, text + sizeof text - 1, d.point).ptr = '\0';
    if (std::strtod(text, nullptr) == std::fabs(value)) break;
  }
  return d;
}

std::string fixedText(double value, int decimals) {
  std::string out;
  if (appendNonFinite(out, value)) return out;
  decimals = std::max(decimals, 0);
  if (std::signbit(value)) out += '-';
  if (appendShortFixed(out, value, decimals)) return out;
  DecimalDigits d;
  if (value != 0) {
    const Expansion exact(value);
    d = exact.rounded(exact.point() + decimals);
  }
  if (d.digits.empty() || d.point <= 0) out += '0';
  for (int i = 0; i < d.point && !d.digits.empty(); ++i) out += digitAt(d, i);
  if (decimals > 0) out += '.';
  for (int i = 0; i < decimals; ++i) out += digitAt(d, d.point + i);
  return out;
}

std::string generalText(double value, int significant) {
  std::string out;
  if (appendNonFinite(out, value)) return out;
  if (std::signbit(value)) out += '-';
  if (value == 0) return out + '0';
  significant = std::max(significant, 1);
  const DecimalDigits d = significantDigits(value, significant);
  const int exponent = d.point - 1;
  const int n = static_cast<int>(d.digits.size());
  if (exponent < -4 || exponent >= significant) {
    out += d.digits[0];
    if (n > 1) out.append(".").append(d.digits, 1);
    out += exponentText(exponent);
  } else if (d.point <= 0) {
    out.append("0.").append(static_cast<std::size_t>(-d.point), '0').append(d.digits);
  } else {
    for (int i = 0; i < d.point; ++i) out += digitAt(d, i);
    if (n > d.point) out.append(".").append(d.digits, static_cast<std::size_t>(d.point));
  }
  return out;
}

std::string exponentText(int exponent) {
  std::string out = exponent < 0 ? "e-" : "e+";
  if (std::abs(exponent) < 10) out += '0';
  return out + std::to_string(std::abs(exponent));
}

std::string hexText(unsigned long long value, int width, bool upper) {
  const char* digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  std::string out;
  for (; value != 0 || static_cast<int>(out.size()) < std::max(width, 1); value /= 16) out += digits[value % 16];
  std::reverse(out.begin(), out.end());
  return out;
}

}  // namespace oomlint
