#include "base/text/release_version.h"

namespace oomlint {

std::optional<ReleaseVersion> ReleaseVersion::parse(std::string_view text) {
  if (text.starts_with('v')) text.remove_prefix(1);
  int parts[3] = {0, 0, 0};
  int count = 0;
  std::size_t i = 0;
  while (count < 3) {
    std::size_t digits = 0;
    long value = 0;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9' && digits < 6; ++i, ++digits) value = value * 10 + (text[i] - '0');
    if (digits == 0) return std::nullopt;
    parts[count++] = static_cast<int>(value);
    if (i == text.size()) break;
    if (text[i] != '.') return std::nullopt;
    ++i;
  }
  if (i != text.size() || count < 2) return std::nullopt;
  return ReleaseVersion{parts[0], parts[1], parts[2]};
}

std::string ReleaseVersion::text() const {
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

}  // namespace oomlint
