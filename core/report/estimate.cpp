#include "report/estimate.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

namespace oomlint {

std::string_view toString(Verdict verdict) {
  switch (verdict) {
    case Verdict::Fits: return "fits";
    case Verdict::Borderline: return "borderline";
    case Verdict::Oom: return "oom";
  }
  return "fits";
}

std::string_view toString(const std::optional<Verdict>& verdict) { return verdict ? toString(*verdict) : "unknown"; }

double HostEstimate::committedBytes(const PhaseEstimate& phase) const {
  double mapped = 0;
  for (const auto& c : phase.components) {
    if (c.fileBacked) mapped += c.bytes;
  }
  return phase.peakBytes - mapped;
}

std::string HostEstimate::describeRam() const {
  if (!ramBytes) return "a machine of unknown RAM";
  const double g = static_cast<double>(*ramBytes) / kGiB;
  return "a " + fixedText(g, g == static_cast<double>(static_cast<long long>(g)) ? 0 : 1) + " GiB machine";
}

#if defined(__cpp_lib_to_chars)
namespace {

// Up to three digits after the point, the way printf rounds the exact binary value, from integers: value × 10^digits is
// exact in a long double of at least 64 significant bits (the double's 53 and 10^3's 7), so rounding it to the nearest
// integer, ties to even as printf breaks an exact tie, is the printed number. Nearly every figure a report prints.
bool shortFixedText(double value, int digits, std::string& out) {
  static constexpr unsigned long long kScale[] = {1, 10, 100, 1000};
  if (std::numeric_limits<long double>::digits < 64 || digits < 0 || digits > 3 || !(std::fabs(value) < 1e15)) return false;
  const long double scaled = std::nearbyintl(std::fabs(static_cast<long double>(value)) * kScale[digits]);
  const auto whole = static_cast<unsigned long long>(scaled);
  char buf[32];
  char* end = std::to_chars(buf, buf + sizeof buf, whole / kScale[digits]).ptr;
  if (digits > 0) {
    *end++ = '.';
    unsigned long long fraction = whole % kScale[digits];
    for (int i = digits - 1; i >= 0; --i, fraction /= 10) end[i] = static_cast<char>('0' + fraction % 10);
    end += digits;
  }
  out.assign(std::signbit(value) ? "-" : "");
  out.append(buf, end);
  return true;
}

}  // namespace
#endif

// std::to_chars rounds the exact binary value as printf's "%.*f" does, without printf's format parsing and locale
// (a tenth of a check's instructions), and the short case is cheaper still; Emscripten's libc++ has no floating-point
// to_chars, so the module keeps printf.
std::string fixedText(double value, int digits) {
  char buf[352];  // DBL_MAX in fixed notation is 309 digits, and `digits` more after the point
#if defined(__cpp_lib_to_chars)
  if (std::string out; shortFixedText(value, digits, out)) return out;
  const auto [end, error] = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed, digits);
  return error == std::errc() ? std::string(buf, end) : std::string("?");
#else
  std::snprintf(buf, sizeof buf, "%.*f", digits, value);
  return buf;
#endif
}

std::string gib(double bytes) { return fixedText(bytes / kGiB, 1); }

std::string formatGiB(double bytes) { return gib(bytes) + " GiB"; }

namespace {
std::string rangeText(double expected, double low, double high) {
  return formatGiB(expected) + " (" + gib(low) + "–" + gib(high) + ")";
}
}  // namespace

std::string formatRange(const PhaseEstimate& phase) { return rangeText(phase.peakBytes, phase.lowBytes, phase.highBytes); }

std::string formatRange(const Estimate& e) { return rangeText(e.peak().peakBytes, e.lowBytes, e.highBytes); }

std::string GpuTarget::describe() const {
  if (name.ends_with("GiB")) return "a " + name + " card";
  return name + " (" + formatGiB(static_cast<double>(vramBytes)) + (memoryGiven ? ", as given)" : ")");
}

}  // namespace oomlint
