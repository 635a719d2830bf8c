// OL706 generation-setting: what cannot be read — the input's own reading problems, a generation
// profile's unknown keys (rules/webui.yaml profile_keys) and each setting the setup could not read.
#include <algorithm>

#include "systems/webui/checks/checks.h"
#include "base/text/suggest.h"

namespace oomlint {

namespace {

void checkProfileKeys(const Node& generation, const std::vector<KnowledgeText>& known, Findings& findings) {
  for (const auto& entry : generation.allEntries()) {
    const std::string key = entry.key->resolved()->text;
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    std::string message = "unknown generation setting `" + key + "`";
    if (auto near = closestMatch(key, known)) message += "; did you mean `" + *near + "`?";
    findings.report(RuleId::OL706, entry.key->range, KeyPath::of({"generation"}).key(key), message);
  }
}

}  // namespace

void checkProfile(const WebUiCheckContext& c, Findings& findings) {
  for (const auto& problem : c.input.problems) findings.report(RuleId::OL706, problem.range, KeyPath::of({"generation"}), problem.message);
  if (c.input.generation) checkProfileKeys(*c.input.generation, c.webui.profileKeys, findings);
  for (const auto& problem : c.setup.problems) findings.report(RuleId::OL706, problem.range, problem.path, problem.message);
}

}  // namespace oomlint
