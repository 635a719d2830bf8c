#include "systems/other_trainers/system.h"

#include <algorithm>
#include <optional>

#include "base/document/reader.h"
#include "base/text/ascii.h"
#include "report/findings.h"

namespace oomlint {

namespace {

// A trainer's config is JSON (OneTrainer, SimpleTuner) or TOML (diffusion-pipe, SimpleTuner's config.toml); a TOML file
// may open with a `[table]` or `[[array]]` header, which looksLikeJson takes for a JSON array.
bool readsAsJson(std::string_view text) {
  if (!looksLikeJson(text)) return false;
  text.remove_prefix(text.find_first_of("{["));
  if (text.front() == '{') return true;
  const std::size_t name = text.find_first_not_of("[ \t");
  if (name == std::string_view::npos) return true;
  const char c = text[name];
  return !(isAsciiAlpha(c) || c == '_');  // a bare key names a table
}

std::unique_ptr<Document> readConfig(std::string text, const ReadLimits& limits) {
  return readsAsJson(text) ? readDocument(std::move(text), limits) : readTomlDocument(std::move(text), limits);
}

// Whether any signature key occurs in the text at all: most inputs are not parsed a second time.
bool mentionsASignatureKey(std::string_view head, const OtherTrainers& others) {
  return std::any_of(others.trainers.begin(), others.trainers.end(), [&](const OtherTrainer& t) {
    return std::any_of(t.signatures.begin(), t.signatures.end(), [&](const std::vector<KnowledgeText>& keys) {
      return std::all_of(keys.begin(), keys.end(), [&](std::string_view key) { return head.find(key) != std::string_view::npos; });
    });
  });
}

// Where `key` starts a line as a key of the text's own format, or npos: `"key": …` in JSON; `key = …`, `[key]` or
// `[[key]]` in TOML. How a file that does not parse still shows whose it is (a log that echoes a config is not one:
// its lines are neither).
std::size_t keyStartingALine(std::string_view text, std::string_view key, bool json) {
  for (std::size_t at = text.find(key); at != std::string_view::npos; at = text.find(key, at + 1)) {
    std::size_t begin = at, end = at + key.size();
    const auto take = [&](char open, char close) {
      if (begin == 0 || text[begin - 1] != open || end >= text.size() || text[end] != close) return false;
      --begin, ++end;
      return true;
    };
    const bool quoted = take('"', '"');
    const bool bracketed = !json && take('[', ']');
    if (bracketed) take('[', ']');  // [[key]], an array of tables
    if (json != quoted) continue;
    while (begin > 0 && (text[begin - 1] == ' ' || text[begin - 1] == '\t')) --begin;
    if (begin > 0 && text[begin - 1] != '\n') continue;
    while (end < text.size() && (text[end] == ' ' || text[end] == '\t')) ++end;
    const char next = end < text.size() ? text[end] : '\n';
    if (bracketed ? next == '\n' || next == '\r' || next == '#' : next == (json ? ':' : '=')) return at;
  }
  return std::string_view::npos;
}

struct LineMatch {
  const OtherTrainer* trainer;
  const std::vector<KnowledgeText>* signature;
  std::size_t begin, end;  // the signature's first key, its quotes included (as a parsed JSON key's range)
};

// The trainer whose signature's keys all start lines of a text that does not parse.
std::optional<LineMatch> matchByLines(std::string_view text, const OtherTrainers& others) {
  const bool json = readsAsJson(text);
  for (const OtherTrainer& t : others.trainers) {
    for (const auto& keys : t.signatures) {
      if (keys.empty()) continue;
      const std::size_t at = keyStartingALine(text, keys.front(), json);
      if (at == std::string_view::npos ||
          !std::all_of(keys.begin() + 1, keys.end(), [&](std::string_view key) { return keyStartingALine(text, key, json) != std::string_view::npos; })) {
        continue;
      }
      const bool quoted = at > 0 && text[at - 1] == '"';
      return LineMatch{&t, &keys, at - quoted, at + keys.front().size() + quoted};
    }
  }
  return std::nullopt;
}

std::string keyList(const std::vector<KnowledgeText>& keys) {
  std::string out;
  for (std::size_t i = 0; i < keys.size(); ++i) out += (i == 0 ? "`" : i + 1 == keys.size() ? " and `" : ", `") + keys[i] + "`";
  return out;
}

}  // namespace

Recognition OtherTrainerSystem::recognise(std::string_view head) const {
  const OtherTrainers& others = *knowledge().otherTrainers;
  if (!mentionsASignatureKey(head, others)) return Recognition::No;
  const auto doc = readConfig(std::string(head), ReadLimits{});
  // A file that does not parse is still the trainer's when a signature's keys start its lines: its syntax error is
  // then reported where it is, not as an AI Toolkit job's.
  const bool named = doc->fatal() ? matchByLines(head, others).has_value() : others.match(doc->root()).has_value();
  return named ? Recognition::Certain : Recognition::No;
}

FileReport OtherTrainerSystem::analyze(const Input& input, const SystemContext& context) const {
  FileReport file;
  file.path = input.path;
  file.kind = kind();
  // Nothing beyond the read is checked: the report says so, and the CLI exits as for an input it cannot read.
  file.unreadable = true;
  const auto doc = readConfig(input.text, context.limits);
  file.source = doc->sharedSource();
  Findings findings;
  for (const auto& problem : doc->problems()) findings.report(problem.code, problem.range, {}, problem.message);
  const OtherTrainers& others = *context.knowledge.otherTrainers;
  const auto report = [&](const OtherTrainer& trainer, const std::vector<KnowledgeText>& signature, Range at) {
    findings.report(RuleId::OL110, at, {},
                    trainer.what + " (" + keyList(signature) + " at the top level): oomlint does not read " + trainer.name +
                        " configs, so nothing in it was checked or estimated; it reads AI Toolkit jobs, sd-scripts and "
                        "musubi-tuner command lines and configs, WebUI launch lines and ComfyUI workflows");
  };
  if (!doc->fatal()) {
    if (const auto m = others.match(doc->root())) report(*m->trainer, *m->signature, m->key->range);
  } else if (const auto m = matchByLines(input.text, others)) {
    report(*m->trainer, *m->signature, file.source->rangeOf(m->begin, m->end));
  }
  file.diagnostics = std::move(findings.all());
  return file;
}

}  // namespace oomlint
