// Numbers written as printf writes them ("%.*f", "%.*g", and "%.*e"'s digits): rounded from the double's exact binary
// value, an exact tie to even. One implementation for the CLI and the module, so their reports cannot differ, and
// neither links what printf's float formatting brings (the module's fmt_fp; the CLI's to_chars tables, 100 KB).
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
std::string generalText(double value, int significant = 6);   // "%.*g"
std::string exponentText(int exponent);                       // "e+05", "e-07": printf's, at least two digits
std::string hexText(unsigned long long value, int width, bool upper = false);  // "%0*llx" / "%0*llX"

}  // namespace oomlint
