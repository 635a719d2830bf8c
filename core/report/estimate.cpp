#include "report/estimate.h"

#include <cstdio>

namespace oomlint {

std::string_view toString(Verdict verdict) {
  switch (verdict) {
    case Verdict::Fits: return "fits";
    case Verdict::Borderline: return "borderline";
    case Verdict::Oom: return "oom";
  }
  return "fits";
}

std::string gib(double bytes) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f", bytes / kGiB);
  return buf;
}

std::string formatGiB(double bytes) { return gib(bytes) + " GiB"; }

std::string GpuTarget::describe() const {
  if (name.ends_with("GiB")) return "a " + name + " card";
  return name + " (" + formatGiB(static_cast<double>(vramBytes)) + ")";
}

}  // namespace oomlint
