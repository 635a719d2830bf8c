// A command line as a shell, cmd.exe or PowerShell script writes it: the words of one logical command,
// each with its exact byte range, across line continuations (`\` in sh, `^` in cmd, a backtick in
// PowerShell, each at the end of a line). Quotes group (their content is the word's value); nothing is
// expanded (`$VAR`, `%VAR%` stay as written).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace oomlint {

struct ShellWord {
  std::string value;            // without quotes
  std::size_t begin = 0, end = 0;  // the word as written, quotes included
};

struct ShellCommand {
  std::vector<ShellWord> words;
  std::size_t begin = 0, end = 0;  // from the first word to the end of the last
};

// The logical commands of a script, each up to a line break that is not continued; a line whose first
// word starts a comment (`#`, `REM`, `@REM`, `::`) is skipped; `#` after a space ends a sh line.
std::vector<ShellCommand> splitCommands(std::string_view text, std::size_t maxWords = 100000);

}  // namespace oomlint
