// A release number as projects write them ("0.16.4", "v0.3.43"): compared part by part, not as text.
#pragma once

#include <compare>
#include <optional>
#include <string>
#include <string_view>

namespace oomlint {

struct ReleaseVersion {
  int major = 0;
  int minor = 0;
  int patch = 0;

  // "0.16", "0.16.4", "v0.16.4"; nullopt for anything else (a commit hash, "0.16.4rc1", an empty text).
  static std::optional<ReleaseVersion> parse(std::string_view text);
  std::string text() const;  // "0.16.4"

  auto operator<=>(const ReleaseVersion&) const = default;
};

}  // namespace oomlint
