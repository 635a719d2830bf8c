// What a project says about findings (`.oomlint.yaml`): codes to drop, severities to change, the
// default card and RAM, the fail level, whether inline suppressions count — for the whole project and per
// path. Parsed here from text; finding the file on disk is the CLI's job.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/knowledge/severity.h"
#include "base/text/source_text.h"

namespace oomlint {

struct Policy {
  std::optional<std::string> gpu;
  std::optional<double> vramGib;
  std::optional<double> ramGib;                   // the machine's system RAM, for the host-RAM verdict
  std::optional<std::optional<Severity>> failOn;  // set: the fail level; an empty inner value is "never"
  std::set<std::string> disabled;                 // rule codes (OL206), normalised from codes or names
  std::map<std::string, Severity> severity;       // per-code overrides
  std::optional<bool> allowSuppressions;          // unset: allowed

  // `other` on top of this: its settings win, its disabled codes and severities add up.
  void merge(const Policy& other);
  bool suppressionsAllowed() const { return allowSuppressions.value_or(true); }
};

struct PathOverride {
  std::vector<std::string> globs;  // relative to the project file's folder: *, ** and ?
  Policy policy;
};

struct ProjectConfig {
  Policy base;
  std::vector<PathOverride> overrides;  // in file order; later ones win

  // The policy for a file, given its path relative to the project file's folder ('/' separated).
  Policy policyFor(const std::string& relativePath) const;
};

struct ConfigProblem {
  Range range;
  std::string message;
};

struct ProjectConfigResult {
  ProjectConfig config;
  std::vector<ConfigProblem> problems;  // any problem makes the file unusable: the CLI stops
};

ProjectConfigResult parseProjectConfig(std::string text);

// Glob match of a '/'-separated path: `*` and `?` stay within one segment, `**` spans segments.
bool globMatch(std::string_view pattern, std::string_view path);

inline constexpr const char* kProjectConfigName = ".oomlint.yaml";

}  // namespace oomlint
