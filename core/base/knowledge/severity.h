#pragma once

#include <optional>
#include <string_view>

namespace oomlint {

enum class Severity { Info = 0, Warning = 1, Error = 2 };

std::string_view toString(Severity severity);
std::optional<Severity> parseSeverity(std::string_view text);

}  // namespace oomlint
