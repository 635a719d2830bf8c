// tqdm progress bars, nearly every line of a training log: reading one, and telling a redraw of the
// same bar at another step from a new line without parsing it (inline: it runs on millions of lines).
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "systems/logs/line_text.h"

namespace oomlint {

struct TqdmBar {
  std::string_view description;
  long step = 0;
  std::size_t stepAt = 0;  // the offset of the step's digits in the line
  long total = 0;          // 0 when the line does not say it
  std::size_t totalAt = 0;  // the offset of its digits
  // Where the bar ends: past the ']' of its "[elapsed<left, rate]" block, or the line's end. Text after
  // it is another line printed where the cursor was (a message, a kill report, the next bar).
  std::size_t end = 0;
};

// A tqdm bar "desc:  12%|███  | 250/2000 [..." → (desc, 250); nullopt when the line is not a bar.
// Colab strips the bar glyphs: "desc:   0% 0/9 [00:05<?, ?it/s]".
std::optional<TqdmBar> tqdmBar(std::string_view line);

namespace redraw {
// Byte masks over eight bytes at once: the high bit of each byte of the result is set where the
// byte is not an ASCII digit (notDigits) or is not zero (nonZero). The low seven bits are summed
// apart so that no carry crosses into the next byte.
constexpr std::uint64_t kLow7 = 0x7F7F7F7F7F7F7F7Full;
constexpr std::uint64_t kHigh = 0x8080808080808080ull;
constexpr std::uint64_t nonZero(std::uint64_t w) { return (((w & kLow7) + kLow7) | w) & kHigh; }
constexpr std::uint64_t notDigits(std::uint64_t w) {
  const std::uint64_t t = w ^ 0x3030303030303030ull;  // '0'..'9' become 0..9
  return (((t & kLow7) + 0x7676767676767676ull) | t) & kHigh;
}

inline std::uint64_t wordAt(std::string_view s, std::size_t i) {
  std::uint64_t w = 0;
  std::memcpy(&w, s.data() + i, 8);
  return w;
}
}  // namespace redraw

// Whether `line` redraws `drawn`: the same length, the same first `fixed` bytes, and otherwise the
// same bytes except where both have a digit. Sixteen bytes at a time where SSE2 is (every x86-64),
// else eight: a redraw is ~100 bytes, most of them unchanged.
inline bool isRedraw(std::string_view drawn, std::string_view line, std::size_t fixed) {
  if (drawn.size() != line.size()) return false;
  const std::size_t n = line.size();
#if defined(__SSE2__)
  if (n >= 16) {
    const auto digits = [](__m128i x) {
      const __m128i d = _mm_sub_epi8(x, _mm_set1_epi8('0'));
      return _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d);
    };
    const auto sameButDigits = [&](std::size_t i) {
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(drawn.data() + i));
      const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(line.data() + i));
      const unsigned equal = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(a, b)));
      if (equal == 0xFFFF) return true;
      const unsigned bothDigits = static_cast<unsigned>(_mm_movemask_epi8(_mm_and_si128(digits(a), digits(b))));
      const unsigned mustEqual = i >= fixed ? 0 : fixed - i >= 16 ? 0xFFFF : (1u << (fixed - i)) - 1;
      return (equal | (bothDigits & ~mustEqual)) == 0xFFFF;
    };
    for (std::size_t i = 0; i + 16 <= n; i += 16) {
      if (!sameButDigits(i)) return false;
    }
    return sameButDigits(n - 16);  // the last sixteen bytes (overlapping is harmless: the test is per byte)
  }
#endif
  using namespace redraw;
  if (std::memcmp(drawn.data(), line.data(), fixed) != 0) return false;
  const auto differsInNonDigits = [&](std::size_t i) {
    const std::uint64_t a = wordAt(drawn, i), b = wordAt(line, i);
    return (nonZero(a ^ b) & (notDigits(a) | notDigits(b))) != 0;
  };
  if (n < 8) {
    for (std::size_t i = 0; i < n; ++i) {
      if (drawn[i] != line[i] && (!isAsciiDigit(drawn[i]) || !isAsciiDigit(line[i]))) return false;
    }
    return true;
  }
  for (std::size_t i = 0; i + 8 <= n; i += 8) {
    if (differsInNonDigits(i)) return false;
  }
  return !differsInNonDigits(n - 8);  // the last eight bytes (overlapping is harmless: the test is per byte)
}

}  // namespace oomlint
