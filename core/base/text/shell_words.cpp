#include "base/text/shell_words.h"

#include "base/text/ascii.h"

namespace oomlint {

namespace {

bool isBlank(char c) { return c == ' ' || c == '\t'; }

// The offset after a line continuation at `pos` (`\`, `^` or a backtick, then optional blanks, then a
// line break), or `pos` when there is none.
std::size_t afterContinuation(std::string_view text, std::size_t pos) {
  const char c = text[pos];
  if (c != '\\' && c != '^' && c != '`') return pos;
  std::size_t i = pos + 1;
  while (i < text.size() && isBlank(text[i])) ++i;
  if (i < text.size() && text[i] == '\r') ++i;
  if (i < text.size() && text[i] == '\n') return i + 1;
  if (i >= text.size()) return i;  // a dangling continuation at the end of the file
  return pos;
}

bool isCommentWord(std::string_view word) {
  if (word.starts_with("#") || word.starts_with("::")) return true;
  const std::string lower = lowercase(word.substr(0, 4));
  return lower == "rem" || lower == "@rem";
}

}  // namespace

std::vector<ShellCommand> splitCommands(std::string_view text, std::size_t maxWords) {
  std::vector<ShellCommand> commands;
  ShellCommand current;
  std::size_t total = 0;
  const auto finish = [&] {
    if (!current.words.empty()) {
      current.begin = current.words.front().begin;
      current.end = current.words.back().end;
      commands.push_back(std::move(current));
    }
    current = {};
  };
  std::size_t pos = 0;
  while (pos < text.size() && total < maxWords) {
    const char c = text[pos];
    if (isBlank(c) || c == '\r') {
      ++pos;
      continue;
    }
    if (c == '\n') {
      finish();
      ++pos;
      continue;
    }
    if (const std::size_t next = afterContinuation(text, pos); next != pos) {
      pos = next;
      continue;
    }
    // A comment: to the end of the line (a REM word only at the start of a command).
    std::size_t wordEnd = pos;
    while (wordEnd < text.size() && !isBlank(text[wordEnd]) && text[wordEnd] != '\n' && text[wordEnd] != '\r') ++wordEnd;
    if (text[pos] == '#' || (current.words.empty() && isCommentWord(text.substr(pos, wordEnd - pos)))) {
      while (pos < text.size() && text[pos] != '\n') ++pos;
      continue;
    }
    ShellWord word;
    word.begin = pos;
    while (pos < text.size() && !isBlank(text[pos]) && text[pos] != '\n' && text[pos] != '\r') {
      const char q = text[pos];
      if (q == '"' || q == '\'') {
        ++pos;
        while (pos < text.size() && text[pos] != q && text[pos] != '\n') word.value.push_back(text[pos++]);
        if (pos < text.size() && text[pos] == q) ++pos;
        continue;
      }
      if (afterContinuation(text, pos) != pos) break;  // `value\` then a line break: the word ends here
      word.value.push_back(q);
      ++pos;
    }
    word.end = pos;
    current.words.push_back(std::move(word));
    ++total;
  }
  finish();
  return commands;
}

}  // namespace oomlint
