// The fixture expectation syntax (tests/fixtures/README.md): parsing, and comparing a report with it.
#include "fixture_expectations.h"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "engine/edits.h"
#include "common/read_file.h"
#include "base/document/reader.h"

namespace oomlint::test {

namespace {

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::string line;
  std::istringstream in(text);
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

bool isBlankOrComment(const std::string& line) {
  const auto first = line.find_first_not_of(" \t");
  return first == std::string::npos || line[first] == '#';
}

std::string trim(std::string s) {
  s.erase(0, s.find_first_not_of(" \t"));
  s.erase(s.find_last_not_of(" \t") + 1);
  return s;
}

bool isCode(const std::string& word) {
  return word.size() == 5 && word.rfind("OL", 0) == 0 &&
         std::all_of(word.begin() + 2, word.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// Reads `CODE:COL "substring" [CODE:COL "substring" …] [# expect-fix[ CODE]: TEXT]` from `rest`, for the
// diagnostics that start on `line`. Anything after another `#` is a comment.
void parseList(std::string_view rest, int line, const std::string& where, Expectations& out) {
  auto fail = [&](const std::string& why) { out.errors.push_back(where + ": " + why); };
  const std::size_t first = out.items.size();
  std::size_t i = 0;
  auto skipBlanks = [&] {
    while (i < rest.size() && (rest[i] == ' ' || rest[i] == '\t')) ++i;
  };
  while (true) {
    skipBlanks();
    if (i >= rest.size() || rest[i] == '#') break;
    std::size_t end = i;
    while (end < rest.size() && rest[end] != ' ' && rest[end] != '\t') ++end;
    const std::string word(rest.substr(i, end - i));
    i = end;
    Expectation e;
    e.line = line;
    e.where = where;
    const auto colon = word.find(':');
    e.code = word.substr(0, colon);
    if (!isCode(e.code)) return fail("`" + word + "` is not a rule code (OLnnn:COLUMN)");
    const std::string column = colon == std::string::npos ? "" : word.substr(colon + 1);
    if (column.empty() || !std::all_of(column.begin(), column.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
      return fail(e.code + " has no column (write " + e.code + ":COLUMN \"substring\")");
    }
    e.column = std::stoi(column);
    skipBlanks();
    if (i >= rest.size() || rest[i] != '"') return fail(word + " has no quoted message substring");
    ++i;
    bool closed = false;
    while (i < rest.size()) {
      const char c = rest[i++];
      if (c == '\\' && i < rest.size()) {
        e.message += rest[i++];
      } else if (c == '"') {
        closed = true;
        break;
      } else {
        e.message += c;
      }
    }
    if (!closed) return fail(word + "'s message substring has no closing quote");
    if (e.message.empty()) return fail(word + "'s message substring is empty");
    out.items.push_back(std::move(e));
  }
  if (out.items.size() == first) return fail("no expectation after `expect:`");
  // `# expect-fix: TEXT` or `# expect-fix OL202: TEXT` (to the end of the line), or
  // `# expect-fix-unplaced: "substring"` for a fix that cannot be written (the substring of the reason).
  if (i >= rest.size()) return;
  std::string_view tail = rest.substr(i);
  const bool unplaced = tail.starts_with("# expect-fix-unplaced");
  if (!unplaced && !tail.starts_with("# expect-fix")) return;  // a comment
  tail.remove_prefix(unplaced ? 21 : 12);
  const auto colon = tail.find(':');
  if (colon == std::string_view::npos) return fail("`# expect-fix` without a colon");
  const std::string code = trim(std::string(tail.substr(0, colon)));
  std::vector<Expectation*> targets;
  for (std::size_t k = first; k < out.items.size(); ++k) {
    if (code.empty() || out.items[k].code == code) targets.push_back(&out.items[k]);
  }
  if (targets.size() != 1) {
    return fail(code.empty() ? "`# expect-fix:` after several codes: name one (`# expect-fix OL202: …`)"
                             : "`# expect-fix " + code + ":` names no single expectation of this line");
  }
  std::string text = trim(std::string(tail.substr(colon + 1)));
  if (unplaced) {
    if (text.size() < 3 || text.front() != '"' || text.back() != '"') return fail("`# expect-fix-unplaced:` needs a quoted substring");
    text = text.substr(1, text.size() - 2);
  }
  // `\n` separates the lines of a fix that spans several.
  for (std::size_t at; (at = text.find("\\n")) != std::string::npos;) text.replace(at, 2, "\n");
  targets.front()->fix = text;
  targets.front()->fixUnplaced = unplaced;
}

}  // namespace

Expectations parseCommentExpectations(const std::string& text, const std::string& name) {
  Expectations out;
  const auto lines = splitLines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    const std::string where = name + ":" + std::to_string(i + 1);
    if (const auto at = line.find("# expect-next-line:"); at != std::string::npos) {
      if (line.find_first_not_of(" \t") != at) {
        out.errors.push_back(where + ": `# expect-next-line:` must stand alone on its line");
        continue;
      }
      std::size_t next = i + 1;
      while (next < lines.size() && isBlankOrComment(lines[next])) ++next;
      if (next == lines.size()) {
        out.errors.push_back(where + ": `# expect-next-line:` with no line after it");
        continue;
      }
      parseList(std::string_view(line).substr(at + 19), static_cast<int>(next) + 1, where, out);
    } else if (const auto at2 = line.find("# expect:"); at2 != std::string::npos) {
      if (line.find_first_not_of(" \t") == at2) {
        out.errors.push_back(where + ": `# expect:` must trail content (use `# expect-next-line:` on a line of its own)");
        continue;
      }
      parseList(std::string_view(line).substr(at2 + 9), static_cast<int>(i) + 1, where, out);
    } else if (line.find("# expect") != std::string::npos) {
      out.errors.push_back(where + ": `# expect…` that is neither `# expect:` nor `# expect-next-line:`");
    }
  }
  return out;
}

Expectations parseSidecarExpectations(const std::string& text, const std::string& name) {
  Expectations out;
  const auto lines = splitLines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (isBlankOrComment(line)) continue;
    const std::string where = name + ":" + std::to_string(i + 1);
    const auto colon = line.find(':');
    const std::string number = trim(line.substr(0, colon));
    if (colon == std::string::npos || number.empty() ||
        !std::all_of(number.begin(), number.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
      out.errors.push_back(where + ": not `LINE: CODE:COLUMN \"substring\" …`");
      continue;
    }
    parseList(std::string_view(line).substr(colon + 1), std::stoi(number), where, out);
  }
  return out;
}

std::vector<std::filesystem::path> fixtureInputs(const std::filesystem::path& root) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file()) continue;
    const auto& path = entry.path();
    const auto ext = path.extension();
    const auto folder = std::filesystem::relative(path, root).begin()->string();
    if (ext == ".expect" || folder == "logs" || folder == "fuzz" || path.filename() == "README.md") continue;
    if (ext == ".yaml" || ext == ".yml" || ext == ".json" || std::filesystem::exists(path.string() + ".expect")) {
      files.push_back(path);
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

Expectations expectationsOf(const std::filesystem::path& input, const std::filesystem::path& root) {
  const std::filesystem::path sidecar = input.string() + ".expect";
  const std::string name = std::filesystem::relative(input, root).generic_string();
  if (std::filesystem::exists(sidecar)) return parseSidecarExpectations(readWholeFile(sidecar), name + ".expect");
  Expectations out = parseCommentExpectations(readWholeFile(input), name);
  if (input.extension() == ".json") out.errors.push_back(name + ": a JSON fixture needs a `.expect` sidecar");
  return out;
}

std::optional<std::string> fixedText(const std::string& text, const Fix& fix, std::string* why) {
  // The edits the analysis attached, as `oomlint fix`, SARIF and the page apply them.
  if (fix.edits.empty()) {
    *why = fix.unplaced.empty() ? "the fix carries no edit" : fix.unplaced;
    return std::nullopt;
  }
  const std::string fixed = applyEdits(text, fix.edits);
  // The changed lines: what is left between the lines both texts begin and end with.
  const auto before = splitLines(text);
  const auto after = splitLines(fixed);
  std::size_t head = 0;
  while (head < before.size() && head < after.size() && before[head] == after[head]) ++head;
  std::size_t tail = 0;
  while (tail < before.size() - head && tail < after.size() - head &&
         before[before.size() - 1 - tail] == after[after.size() - 1 - tail]) {
    ++tail;
  }
  std::string out;
  for (std::size_t k = head; k < after.size() - tail; ++k) {
    std::string line = after[k];
    if (const auto at = line.find("# expect"); at != std::string::npos) line.erase(at);
    line.erase(line.find_last_not_of(" \t") + 1);
    out += (k == head ? "" : "\n") + line;
  }
  return trim(out);
}

std::vector<std::string> compareWithExpectations(const std::string& text, const std::vector<Diagnostic>& diagnostics,
                                                 const Expectations& expected, const std::string& name) {
  std::vector<std::string> problems = expected.errors;
  auto show = [](const Diagnostic& d) {
    return std::string(toString(d.code)) + ":" + std::to_string(d.range.start.column) + " \"" + d.message + "\"";
  };
  std::vector<bool> paired(diagnostics.size(), false);
  std::vector<const Expectation*> unpaired;
  // First pair on code, line, column and message; then what is left on code, line and column alone, so
  // that a wrong substring is reported as such rather than as a missing and an extra diagnostic.
  std::vector<std::pair<const Expectation*, std::size_t>> pairs;
  for (const bool byMessage : {true, false}) {
    std::vector<const Expectation*> left;
    for (const Expectation& e : expected.items) {
      if (std::any_of(pairs.begin(), pairs.end(), [&](const auto& p) { return p.first == &e; })) continue;
      bool found = false;
      for (std::size_t k = 0; k < diagnostics.size() && !found; ++k) {
        const Diagnostic& d = diagnostics[k];
        if (paired[k] || d.code != e.code || d.range.start.line != e.line || d.range.start.column != e.column) continue;
        if (byMessage && d.message.find(e.message) == std::string::npos) continue;
        paired[k] = found = true;
        pairs.emplace_back(&e, k);
      }
      if (!found) left.push_back(&e);
    }
    unpaired = left;
  }
  for (const auto& [e, k] : pairs) {
    const Diagnostic& d = diagnostics[k];
    if (d.message.find(e->message) == std::string::npos) {
      problems.push_back(e->where + ": " + e->code + " at " + std::to_string(e->line) + ":" + std::to_string(e->column) +
                         ": the message does not contain \"" + e->message + "\"; it is \"" + d.message + "\"");
    }
    if (!d.fix && e->fix) {
      problems.push_back(e->where + ": " + e->code + " at " + std::to_string(e->line) + ":" + std::to_string(e->column) +
                         " carries no fix, yet `expect-fix: " + *e->fix + "` is expected");
    } else if (d.fix && !e->fix) {
      problems.push_back(e->where + ": " + e->code + " at " + std::to_string(e->line) + ":" + std::to_string(e->column) +
                         " carries a fix (" + d.fix->path.toString() + " to " + d.fix->toJson + "): add `# expect-fix: …`");
    } else if (d.fix) {
      std::string why;
      const auto got = fixedText(text, *d.fix, &why);
      if (e->fixUnplaced) {
        if (got) {
          problems.push_back(e->where + ": " + e->code + "'s fix was expected not to be placed, yet it gives `" + *got + "`");
        } else if (why.find(*e->fix) == std::string::npos) {
          problems.push_back(e->where + ": " + e->code + "'s fix cannot be placed because \"" + why + "\", not \"" + *e->fix + "\"");
        }
      } else if (!got) {
        problems.push_back(e->where + ": " + e->code + "'s fix (" + d.fix->path.toString() + " to " + d.fix->toJson +
                           ") cannot be applied: " + why);
      } else if (*got != *e->fix) {
        problems.push_back(e->where + ": " + e->code + "'s fix gives `" + *got + "`, expected `" + *e->fix + "`");
      }
    }
  }
  for (const Expectation* e : unpaired) {
    std::string near;
    for (std::size_t k = 0; k < diagnostics.size(); ++k) {
      if (!paired[k] && diagnostics[k].range.start.line == e->line) near += "; at this line is " + show(diagnostics[k]);
    }
    problems.push_back(e->where + ": expected " + e->code + ":" + std::to_string(e->column) + " \"" + e->message +
                       "\" at line " + std::to_string(e->line) + ", not reported" + near);
  }
  for (std::size_t k = 0; k < diagnostics.size(); ++k) {
    if (paired[k]) continue;
    problems.push_back(name + ":" + std::to_string(diagnostics[k].range.start.line) + ": unexpected " + show(diagnostics[k]));
  }
  return problems;
}

}  // namespace oomlint::test
