// Scanning helpers over raw YAML text: where a token that starts at a known offset ends.
// yaml-cpp reports only start marks; these recover the end of each node from the source.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace oomlint {

std::size_t lineStartAt(std::string_view text, std::size_t offset);
std::size_t lineEndAt(std::string_view text, std::size_t offset);  // before the line break
std::size_t indentOfLineAt(std::string_view text, std::size_t offset);

// Past any `&anchor` and `!tag` properties (and the spaces after them).
std::size_t skipProperties(std::string_view text, std::size_t offset);
// Just after the closing quote of the quoted scalar opening at `offset`; none when the text ends first.
std::optional<std::size_t> quotedEnd(std::string_view text, std::size_t offset);
// The end of the last content line of a `|` / `>` scalar whose header is at `offset`; content lines
// are indented beyond `ownerIndent` (the indentation of the key or `-` that owns the scalar).
std::size_t blockScalarEnd(std::string_view text, std::size_t offset, long ownerIndent);
// The end of a plain scalar starting at `offset` whose folded value has `valueBytes` bytes.
std::size_t plainEnd(std::string_view text, std::size_t offset, bool flow, std::size_t valueBytes);
std::size_t aliasEnd(std::string_view text, std::size_t offset);
// After the `]` or `}` that closes a flow collection whose last child ends at `offset`.
std::size_t flowCloseEnd(std::string_view text, std::size_t offset);
// Just after the `:` that follows a mapping key ending at `offset`.
std::size_t afterColon(std::string_view text, std::size_t offset);
// Whether the key starting at `offset` is an explicit one (`? key`), whose `:` may come on a later line.
bool isExplicitKey(std::string_view text, std::size_t offset);

// After a parse failure at `errorOffset`: the opening quote of a quoted value that is not closed on
// its own line and runs on into lines that look like `key:` entries, if there is one before the error.
std::optional<std::size_t> findRunawayQuote(std::string_view text, std::size_t errorOffset);

}  // namespace oomlint
