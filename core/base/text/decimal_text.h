// Numbers written as printf writes them ("%.*f", "%.*e", "%.*g"), rounded from the double's exact binary value
// with an exact tie to even, without printf: in the WebAssembly module printf brought its format parser and
// long-double arithmetic (about 8 KB, and the first analysis compiled them), and the native CLI paid its format
// parsing on every figure. One implementation for both builds, so their reports cannot differ.
#pragma once

#include <string>

namespace oomlint {

// The first `count` significant decimal digits of |value|, rounded: |value| = 0.DIGITS × 10^point.
struct DecimalDigits {
  std::string digits;  // no leading or trailing zeros; empty for zero
  int point = 0;
};
DecimalDigits significantDigits(double value, int count);

// The fewest significant digits that read back (strtod) as `value` exactly.
DecimalDigits shortestDigits(double value);

std::string fixedText(double value, int decimals = 2);        // "%.*f"
std::string scientificText(double value, int decimals);       // "%.*e"
std::string generalText(double value, int significant = 6);   // "%.*g"
std::string exponentText(int exponent);                       // "e+05", "e-07": printf's, at least two digits
std::string hexText(unsigned long long value, int width, bool upper = false);  // "%0*llx" / "%0*llX"

}  // namespace oomlint
