#include "policy/policy.h"

#include <algorithm>
#include <array>
#include <span>
#include <string_view>

#include "base/document/reader.h"
#include "base/knowledge/knowledge.h"
#include "base/text/suggest.h"

namespace oomlint {

void Policy::merge(const Policy& other) {
  if (other.gpu || other.vramGib) {
    gpu = other.gpu;
    vramGib = other.vramGib;
  }
  if (other.ramGib) ramGib = other.ramGib;
  if (other.failOn) failOn = other.failOn;
  disabled.insert(other.disabled.begin(), other.disabled.end());
  for (const auto& [code, level] : other.severity) severity[code] = level;
  if (other.allowSuppressions) allowSuppressions = other.allowSuppressions;
}

Policy ProjectConfig::policyFor(const std::string& relativePath) const {
  Policy policy = base;
  for (const auto& entry : overrides) {
    for (const auto& glob : entry.globs) {
      if (globMatch(glob, relativePath)) {
        policy.merge(entry.policy);
        break;
      }
    }
  }
  return policy;
}

bool globMatch(std::string_view pattern, std::string_view path) {
  // Iterative matcher with one backtrack point per kind of star, as in classic wildcard matching.
  std::size_t p = 0, s = 0;
  std::size_t starP = std::string_view::npos, starS = 0;  // last `*` (segment-local)
  std::size_t globP = std::string_view::npos, globS = 0;  // last `**`
  while (s < path.size()) {
    if (p + 1 < pattern.size() && pattern[p] == '*' && pattern[p + 1] == '*') {
      p += 2;
      if (p < pattern.size() && pattern[p] == '/') ++p;  // `**/` also matches no folder at all
      globP = p;
      globS = s;
      starP = std::string_view::npos;
    } else if (p < pattern.size() && pattern[p] == '*') {
      starP = ++p;
      starS = s;
    } else if (p < pattern.size() && (pattern[p] == path[s] || (pattern[p] == '?' && path[s] != '/'))) {
      ++p;
      ++s;
    } else if (starP != std::string_view::npos && path[starS] != '/') {
      p = starP;
      s = ++starS;
    } else if (globP != std::string_view::npos) {
      p = globP;
      s = ++globS;
      starP = std::string_view::npos;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

namespace {

// Constant data: nothing is built at a process's start for a project file most runs never read.
constexpr std::array<std::string_view, 8> kTopKeys = {"gpu", "vram", "ram", "fail_on", "disable", "severity", "allow_suppressions", "overrides"};
constexpr std::array<std::string_view, 8> kOverrideKeys = {"paths", "gpu", "vram", "ram", "fail_on", "disable", "severity", "allow_suppressions"};

class Parser {
 public:
  explicit Parser(std::vector<ConfigProblem>& problems) : problems_(problems) {}

  // The settings of one mapping (the file, or an override entry); `keys` are the ones allowed.
  Policy policy(const Node* map, std::span<const std::string_view> keys, std::vector<std::string>* globs) {
    Policy out;
    for (const auto& [keyNode, value] : map->allEntries()) {
      const std::string& key = keyNode->resolved()->text;
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
        const auto guess = closestMatch(key, keys);
        fail(keyNode->range, "unknown key `" + key + "`" + (guess ? "; did you mean `" + *guess + "`?" : ""));
      } else if (key == "gpu") {
        if (auto name = string(value, key)) out.gpu = *name;
      } else if (key == "vram") {
        if (value->isNumber() && value->number() > 0) out.vramGib = value->number();
        else fail(value->range, "`vram` must be a positive size in GiB");
      } else if (key == "ram") {
        if (value->isNumber() && value->number() > 0) out.ramGib = value->number();
        else fail(value->range, "`ram` must be a positive size in GiB");
      } else if (key == "fail_on") {
        if (auto level = string(value, key)) {
          if (*level == "never") out.failOn = std::optional<Severity>{};
          else if (auto parsed = parseSeverity(*level)) out.failOn = parsed;
          else fail(value->range, "`fail_on` must be error, warning, info or never");
        }
      } else if (key == "disable") {
        for (const Node* item : list(value, key)) {
          if (auto code = ruleCode(item)) out.disabled.insert(*code);
        }
      } else if (key == "severity") {
        severities(value, out);
      } else if (key == "allow_suppressions") {
        if (value->isScalar() && value->resolved()->type == ScalarType::Bool) out.allowSuppressions = value->resolved()->boolValue;
        else fail(value->range, "`allow_suppressions` must be true or false");
      } else if (key == "paths" && globs) {
        for (const Node* item : list(value, key)) {
          if (auto glob = string(item, "paths")) globs->push_back(*glob);
        }
      }
    }
    return out;
  }

  void fail(Range range, std::string message) { problems_.push_back({range, std::move(message)}); }

  std::optional<std::string> string(const Node* value, const std::string& key) {
    if (value->isScalar() && !value->isNull()) return value->resolved()->text;
    fail(value->range, "`" + key + "` must be a text value");
    return std::nullopt;
  }

  std::vector<const Node*> list(const Node* value, const std::string& key) {
    if (value->isSequence()) return value->resolved()->items;
    if (value->isScalar() && !value->isNull()) return {value};  // a single item needs no brackets
    fail(value->range, "`" + key + "` must be a list");
    return {};
  }

  std::optional<std::string> ruleCode(const Node* item) {
    auto text = string(item, "disable");
    if (!text) return std::nullopt;
    if (const RuleInfo* rule = knowledge().catalog.find(*text)) return rule->code;
    fail(item->range, "unknown rule `" + *text + "` (oomlint rules lists them)");
    return std::nullopt;
  }

  void severities(const Node* value, Policy& out) {
    if (!value->isMapping()) {
      fail(value->range, "`severity` must map rule codes to error, warning or info");
      return;
    }
    for (const auto& [keyNode, level] : value->resolved()->allEntries()) {
      const auto code = ruleCode(keyNode);
      const auto parsed = level->isScalar() ? parseSeverity(level->resolved()->text) : std::nullopt;
      if (!parsed) fail(level->range, "a severity is error, warning or info");
      if (code && parsed) out.severity[*code] = *parsed;
    }
  }

 private:
  std::vector<ConfigProblem>& problems_;
};

}  // namespace

ProjectConfigResult parseProjectConfig(std::string text) {
  ProjectConfigResult result;
  // Always YAML (a project file starting with `{` is flow-style YAML, not JSON).
  auto doc = readYaml(std::make_shared<const SourceText>(std::move(text)), ReadLimits{});
  for (const auto& problem : doc->problems()) result.problems.push_back({problem.range, problem.message});
  if (doc->fatal()) return result;
  const Node* root = doc->root();
  if (root == nullptr || root->isNull()) return result;  // an empty project file is a valid one
  if (!root->isMapping()) {
    result.problems.push_back({root->range, "the project file must be a mapping of settings"});
    return result;
  }
  Parser parser(result.problems);
  result.config.base = parser.policy(root->resolved(), kTopKeys, nullptr);
  if (const Node* overrides = root->find("overrides")) {
    for (const Node* entry : parser.list(overrides, "overrides")) {
      if (!entry->isMapping()) {
        parser.fail(entry->range, "each override is a mapping with `paths` and settings");
        continue;
      }
      PathOverride item;
      item.policy = parser.policy(entry->resolved(), kOverrideKeys, &item.globs);
      if (item.globs.empty()) parser.fail(entry->range, "an override needs `paths`");
      result.config.overrides.push_back(std::move(item));
    }
  }
  return result;
}

}  // namespace oomlint
