// Reading raw YAML text around a syntax error, for a message that points where the mistake is.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace oomlint {

std::size_t lineEndAt(std::string_view text, std::size_t offset);  // before the line break
// Just after the closing quote of the quoted scalar opening at `offset`; none when the text ends first.
std::optional<std::size_t> quotedEnd(std::string_view text, std::size_t offset);

// After a parse failure at `errorOffset`: the opening quote of a quoted value that is not closed on
// its own line and runs on into lines that look like `key:` entries, if there is one before the error.
std::optional<std::size_t> findRunawayQuote(std::string_view text, std::size_t errorOffset);

}  // namespace oomlint
