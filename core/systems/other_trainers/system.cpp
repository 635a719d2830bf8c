#include "systems/other_trainers/system.h"

#include <algorithm>

#include "base/document/reader.h"
#include "report/findings.h"

namespace oomlint {

namespace {

// A trainer's config is JSON (OneTrainer, SimpleTuner) or TOML (diffusion-pipe, SimpleTuner's config.toml).
std::unique_ptr<Document> readConfig(std::string text, const ReadLimits& limits) {
  return looksLikeJson(text) ? readDocument(std::move(text), limits) : readTomlDocument(std::move(text), limits);
}

// Whether any signature key occurs in the text at all: most inputs are not parsed a second time.
bool mentionsASignatureKey(std::string_view head, const OtherTrainers& others) {
  return std::any_of(others.trainers.begin(), others.trainers.end(), [&](const OtherTrainer& t) {
    return std::any_of(t.signatures.begin(), t.signatures.end(), [&](const std::vector<std::string>& keys) {
      return std::all_of(keys.begin(), keys.end(), [&](const std::string& key) { return head.find(key) != std::string_view::npos; });
    });
  });
}

std::string keyList(const std::vector<std::string>& keys) {
  std::string out;
  for (std::size_t i = 0; i < keys.size(); ++i) out += (i == 0 ? "`" : i + 1 == keys.size() ? " and `" : ", `") + keys[i] + "`";
  return out;
}

}  // namespace

Recognition OtherTrainerSystem::recognise(std::string_view head) const {
  const OtherTrainers& others = *knowledge().otherTrainers;
  if (!mentionsASignatureKey(head, others)) return Recognition::No;
  const auto doc = readConfig(std::string(head), ReadLimits{});
  return !doc->fatal() && others.match(doc->root()) ? Recognition::Certain : Recognition::No;
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
  if (!doc->fatal()) {
    if (const auto m = context.knowledge.otherTrainers->match(doc->root())) {
      findings.report(RuleId::OL110, m->key->range, {},
                      m->trainer->what + " (" + keyList(*m->signature) + " at the top level): oomlint does not read " +
                          m->trainer->name + " configs, so nothing in it was checked or estimated; it reads AI Toolkit jobs, "
                          "sd-scripts and musubi-tuner command lines and configs, WebUI launch lines and ComfyUI workflows");
    }
  }
  file.diagnostics = std::move(findings.all());
  return file;
}

}  // namespace oomlint
