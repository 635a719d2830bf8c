#include "systems/webui/webui_input.h"

#include <algorithm>
#include <array>

#include "base/document/reader.h"

namespace oomlint {

namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r'; }

std::string_view trimLeft(std::string_view s) {
  while (!s.empty() && isSpace(s.front())) s.remove_prefix(1);
  return s;
}

bool startsWithNoCase(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    const char a = static_cast<char>(text[i] | 0x20), b = static_cast<char>(prefix[i] | 0x20);
    if (a != b) return false;
  }
  return true;
}

// Lines of `text` as (begin, end) offsets, without the line break.
template <typename F>
void forEachLine(std::string_view text, F&& visit) {
  for (std::size_t pos = 0; pos <= text.size();) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::size_t lineEnd = end;
    if (lineEnd > pos && text[lineEnd - 1] == '\r') --lineEnd;
    if (!visit(pos, lineEnd)) return;
    if (end == text.size()) break;
    pos = end + 1;
  }
}

// `set COMMANDLINE_ARGS=…`, `set "COMMANDLINE_ARGS=…"`, `export COMMANDLINE_ARGS="…"`,
// `COMMANDLINE_ARGS=…`: the offsets of the value (inside its quotes).
std::optional<std::pair<std::size_t, std::size_t>> assignmentValue(std::string_view text, std::size_t begin,
                                                                     std::size_t end) {
  std::string_view line = text.substr(begin, end - begin);
  const std::size_t indent = line.size() - trimLeft(line).size();
  line.remove_prefix(indent);
  std::size_t at = begin + indent;
  for (std::string_view keyword : {"set ", "export "}) {
    if (startsWithNoCase(line, keyword)) {
      line.remove_prefix(keyword.size());
      const std::string_view rest = trimLeft(line);
      at += keyword.size() + (line.size() - rest.size());
      line = rest;
      break;
    }
  }
  bool outerQuote = false;
  if (!line.empty() && line.front() == '"') {
    outerQuote = true;
    line.remove_prefix(1);
    ++at;
  }
  constexpr std::string_view key = "COMMANDLINE_ARGS=";
  if (!line.starts_with(key)) return std::nullopt;
  line.remove_prefix(key.size());
  at += key.size();
  std::size_t valueEnd = at + line.size();
  if (!line.empty() && (line.front() == '"' || line.front() == '\'')) {
    const char quote = line.front();
    const std::size_t close = line.find(quote, 1);
    if (close != std::string_view::npos) return std::make_pair(at + 1, at + close);
    return std::make_pair(at + 1, valueEnd);
  }
  if (outerQuote) {
    const std::size_t close = line.rfind('"');
    if (close != std::string_view::npos) valueEnd = at + close;
  }
  // A trailing shell comment is not an argument.
  const std::string_view value = text.substr(at, valueEnd - at);
  if (const std::size_t hash = value.find(" #"); hash != std::string_view::npos) valueEnd = at + hash;
  return std::make_pair(at, valueEnd);
}

constexpr std::array kA1111Scripts = {std::string_view("launch.py"), std::string_view("webui.py"),
                                      std::string_view("webui.sh"), std::string_view("webui.bat"),
                                      std::string_view("webui-user.bat"), std::string_view("webui-user.sh"),
                                      std::string_view("run.bat")};

// A command line that starts one of the tools: where its arguments begin, and which tool it names.
std::optional<std::pair<std::size_t, std::optional<WebUiTool>>> commandArguments(std::string_view text, std::size_t begin,
                                                                                 std::size_t end) {
  const std::string_view line = text.substr(begin, end - begin);
  const std::string_view trimmed = trimLeft(line);
  const std::size_t indent = line.size() - trimmed.size();
  if (trimmed.size() > 2 && trimmed.starts_with("--") && trimmed[2] != '-' && trimmed[2] != ' ') {
    return std::make_pair(begin + indent, std::optional<WebUiTool>{});
  }
  constexpr std::string_view launching = "Launching Web UI with arguments:";
  if (const std::size_t at = line.find(launching); at != std::string_view::npos) {
    return std::make_pair(begin + at + launching.size(), std::optional<WebUiTool>{WebUiTool::A1111});
  }
  // Tokens until the script: `python launch.py`, `./webui.sh`, `python3 main.py`, `.\python_embeded\python.exe -s ComfyUI\main.py`.
  std::size_t pos = 0;
  for (int token = 0; token < 6 && pos < line.size(); ++token) {
    while (pos < line.size() && isSpace(line[pos])) ++pos;
    std::size_t stop = pos;
    while (stop < line.size() && !isSpace(line[stop])) ++stop;
    std::string_view word = line.substr(pos, stop - pos);
    if (word.empty()) break;
    const std::size_t slash = word.find_last_of("/\\");
    const std::string_view base = slash == std::string_view::npos ? word : word.substr(slash + 1);
    for (std::string_view script : kA1111Scripts) {
      if (base == script) return std::make_pair(begin + stop, std::optional<WebUiTool>{});
    }
    if (base == "main.py") return std::make_pair(begin + stop, std::optional<WebUiTool>{WebUiTool::ComfyUi});
    pos = stop;
  }
  return std::nullopt;
}

bool isInfoLine(std::string_view line) {
  line = trimLeft(line);
  if (!line.starts_with("Steps: ")) return false;
  std::size_t i = 7;
  const std::size_t digits = i;
  while (i < line.size() && line[i] >= '0' && line[i] <= '9') ++i;
  return i > digits && (i == line.size() || line[i] == ',');
}

bool hasGenerationKey(std::string_view head) {
  bool found = false;
  forEachLine(head, [&](std::size_t b, std::size_t e) {
    const std::string_view line = head.substr(b, e - b);
    if (line.starts_with("generation:") || trimLeft(line).starts_with("\"generation\"") || line.starts_with("{\"generation\"")) {
      found = true;
      return false;
    }
    return true;
  });
  return found;
}

void addProblem(WebUiInput& input, Range at, std::string message) {
  input.problems.push_back({at, std::move(message)});
}

// The profile's `args`: a string (tokens located inside the scalar as written) or a list of strings.
void readProfileArgs(WebUiInput& input, const Node* args) {
  input.argsNode = args;
  const SourceText& source = *input.source;
  if (args->isSequence()) {
    for (const Node* item : args->resolved()->items) {
      if (!item->isScalar()) continue;
      for (auto flag : tokenizeArgs(SourceText(item->resolved()->text), 0, item->resolved()->text.size())) {
        flag.range = item->range;
        flag.begin = item->range.start.offset;
        flag.end = item->range.end.offset;
        input.flags.push_back(std::move(flag));
      }
    }
    input.hasLaunchLine = true;
    return;
  }
  if (!args->isScalar()) {
    addProblem(input, args->range, "`args` is the launch arguments: a string (\"--medvram --xformers\") or a list of them");
    return;
  }
  const std::string& text = args->resolved()->text;
  input.hasLaunchLine = true;
  const std::size_t begin = args->range.start.offset, end = args->range.end.offset;
  const std::string_view raw = std::string_view(source.text()).substr(begin, end - begin);
  // The value as written: a plain or quoted scalar without escapes holds the text verbatim.
  // (An empty value has no place of its own: a new flag replaces the whole scalar instead.)
  const std::size_t at = raw.find(text);
  if (!text.empty() && at != std::string_view::npos) {
    input.flags = tokenizeArgs(source, begin + at, begin + at + text.size());
    input.flagInsertOffset = begin + at + text.size();
  } else {
    for (auto flag : tokenizeArgs(SourceText(text), 0, text.size())) {
      flag.range = args->range;
      flag.begin = begin;
      flag.end = end;
      input.flags.push_back(std::move(flag));
    }
    input.flagInsertOffset = end;
    input.flagInsertNeedsQuoteCheck = true;
  }
}

void readProfileParameters(WebUiInput& input, const Node* parameters) {
  if (!parameters->isScalar()) {
    addProblem(input, parameters->range, "`parameters` is the text A1111 writes under an image (\"Steps: 20, Sampler: …, Size: 512x768, …\")");
    return;
  }
  const std::string_view source = input.source->text();
  const std::size_t begin = parameters->range.start.offset, end = parameters->range.end.offset;
  bool found = false;
  forEachLine(source.substr(0, end), [&](std::size_t b, std::size_t e) {
    if (e < begin) return true;
    const std::size_t from = std::max(b, begin);
    const std::string_view line = source.substr(from, e - from);
    const std::size_t steps = line.find("Steps: ");
    if (steps != std::string_view::npos && isInfoLine(line.substr(steps))) {
      std::size_t stop = e;
      if (stop > from && (source[stop - 1] == '"' || source[stop - 1] == '\'') && parameters->resolved()->quoted) --stop;
      input.info = parseInfoLine(*input.source, from + steps, stop);
      input.infoRange = input.source->rangeOf(from + steps, stop);
      found = true;
      return false;
    }
    return true;
  });
  if (!found) {
    // Escaped or folded: parse the decoded text, every field pointing at the whole value.
    const std::string& text = parameters->resolved()->text;
    const SourceText decoded(text);
    forEachLine(text, [&](std::size_t b, std::size_t e) {
      if (!isInfoLine(std::string_view(text).substr(b, e - b))) return true;
      for (auto field : parseInfoLine(decoded, b, e)) {
        field.range = parameters->range;
        input.info.push_back(std::move(field));
      }
      return false;
    });
    input.infoRange = parameters->range;
  }
}

void readProfile(WebUiInput& input) {
  const Node* root = input.profile->root();
  if (root == nullptr || !root->isMapping()) return;
  const Node* generation = root->find("generation");
  if (generation == nullptr) return;
  if (!generation->isMapping()) {
    addProblem(input, generation->range, "`generation` is a mapping of the generation settings (model, width, height, …)");
    return;
  }
  input.generation = generation;
  if (const Node* args = generation->find("args")) readProfileArgs(input, args);
  if (const Node* parameters = generation->find("parameters")) readProfileParameters(input, parameters);
}

void readPlainText(WebUiInput& input) {
  const std::string_view text = input.source->text();
  std::optional<std::pair<std::size_t, std::size_t>> args;
  forEachLine(text, [&](std::size_t b, std::size_t e) {
    const std::string_view line = trimLeft(text.substr(b, e - b));
    if (line.starts_with("#") || startsWithNoCase(line, "rem ") || line.starts_with("::")) return true;
    if (auto value = assignmentValue(text, b, e)) {
      args = value;
    } else if (isInfoLine(line)) {
      const std::size_t at = e - line.size();
      input.info = parseInfoLine(*input.source, at, e);
      input.infoRange = input.source->rangeOf(at, e);
    } else if (!args) {
      if (auto command = commandArguments(text, b, e)) {
        args = std::make_pair(command->first, e);
        if (command->second) input.commandTool = command->second;
      }
    }
    return true;
  });
  if (args) {
    input.hasLaunchLine = true;
    input.flags = tokenizeArgs(*input.source, args->first, args->second);
    std::size_t insert = args->second;
    while (insert > args->first && isSpace(text[insert - 1])) --insert;
    input.flagInsertOffset = insert;
  }
}

}  // namespace

bool looksLikeGenerationProfile(std::string_view head) { return hasGenerationKey(head); }

bool looksLikeWebUiInput(std::string_view head) {
  if (hasGenerationKey(head)) return true;
  bool found = false;
  forEachLine(head, [&](std::size_t b, std::size_t e) {
    const std::string_view line = trimLeft(head.substr(b, e - b));
    if (line.find("COMMANDLINE_ARGS") != std::string_view::npos || isInfoLine(line) ||
        (line.size() > 2 && line.starts_with("--") && line[2] != '-' && line[2] != ' ')) {
      found = true;
    } else if (auto command = commandArguments(head, b, e); command && command->first < e) {
      found = head.substr(command->first, e - command->first).find("--") != std::string_view::npos;
    }
    return !found;
  });
  return found;
}

std::vector<LaunchFlag> tokenizeArgs(const SourceText& source, std::size_t begin, std::size_t end) {
  const std::string_view text = source.text();
  end = std::min(end, text.size());
  struct Token {
    std::size_t begin, end;
    std::string value;
  };
  std::vector<Token> tokens;
  for (std::size_t pos = begin; pos < end;) {
    while (pos < end && isSpace(text[pos])) ++pos;
    if (pos >= end) break;
    Token t{pos, pos, {}};
    while (pos < end && !isSpace(text[pos])) {
      if (text[pos] == '"' || text[pos] == '\'') {
        const char quote = text[pos++];
        while (pos < end && text[pos] != quote) t.value += text[pos++];
        if (pos < end) ++pos;
      } else {
        t.value += text[pos++];
      }
    }
    t.end = pos;
    tokens.push_back(std::move(t));
  }
  std::vector<LaunchFlag> flags;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const Token& t = tokens[i];
    if (!t.value.starts_with("-") || t.value == "-" || t.value == "--") continue;  // positional or variable
    LaunchFlag flag;
    flag.begin = t.begin;
    flag.end = t.end;
    if (const std::size_t eq = t.value.find('='); eq != std::string::npos) {
      flag.name = t.value.substr(0, eq);
      flag.value = t.value.substr(eq + 1);
    } else {
      flag.name = t.value;
      if (i + 1 < tokens.size() && !tokens[i + 1].value.starts_with("-")) {
        flag.value = tokens[i + 1].value;
        flag.end = tokens[i + 1].end;
        // Values that are not the flag's own are judged later (the flag catalog knows which take one).
      }
    }
    flag.range = source.rangeOf(flag.begin, flag.end);
    flags.push_back(std::move(flag));
  }
  return flags;
}

std::vector<InfoField> parseInfoLine(const SourceText& source, std::size_t begin, std::size_t end) {
  const std::string_view text = source.text();
  std::vector<InfoField> fields;
  std::size_t pos = begin;
  while (pos < end) {
    while (pos < end && isSpace(text[pos])) ++pos;
    const std::size_t colon = text.find(": ", pos);
    if (colon == std::string_view::npos || colon >= end) break;
    InfoField field;
    field.key = std::string(text.substr(pos, colon - pos));
    std::size_t valueBegin = colon + 2, valueEnd = valueBegin;
    if (valueBegin < end && text[valueBegin] == '"') {
      // A quoted value (ControlNet units): up to the closing quote, backslash escapes honoured.
      std::size_t i = valueBegin + 1;
      while (i < end && text[i] != '"') i += text[i] == '\\' ? 2 : 1;
      valueEnd = std::min(i + 1, end);
      field.value = std::string(text.substr(valueBegin + 1, std::min(i, end) - valueBegin - 1));
      pos = valueEnd;
      const std::size_t comma = text.find(',', pos);
      pos = comma == std::string_view::npos || comma >= end ? end : comma + 1;
    } else {
      std::size_t comma = text.find(", ", valueBegin);
      if (comma == std::string_view::npos || comma > end) comma = end;
      valueEnd = comma;
      while (valueEnd > valueBegin && isSpace(text[valueEnd - 1])) --valueEnd;
      field.value = std::string(text.substr(valueBegin, valueEnd - valueBegin));
      pos = comma + (comma < end ? 2 : 0);
    }
    field.range = source.rangeOf(valueBegin, valueEnd);
    if (field.key.find(',') == std::string::npos) fields.push_back(std::move(field));
    if (fields.size() > 200) break;  // a parameters line has a few dozen fields
  }
  return fields;
}

const InfoField* findInfo(const WebUiInput& input, std::string_view key) {
  for (const auto& f : input.info) {
    if (f.key == key) return &f;
  }
  return nullptr;
}

WebUiInput readWebUiInput(std::string text) {
  WebUiInput input;
  const std::string_view head = std::string_view(text).substr(0, 1 << 16);
  if (hasGenerationKey(head)) {
    input.profile = readDocument(std::move(text));
    input.source = input.profile->sharedSource();
    if (!input.profile->fatal()) readProfile(input);
    return input;
  }
  input.source = std::make_shared<const SourceText>(std::move(text));
  readPlainText(input);
  return input;
}

}  // namespace oomlint
