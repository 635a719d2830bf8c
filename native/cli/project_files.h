// Finds and reads the project file (.oomlint.yaml) that governs each input: the one named with
// --config, else the nearest one in the input's folder or above it. Parsing is the core's
// (policy/policy.h); this is the file-system half.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <variant>

#include "policy/policy.h"

namespace oomlint::cli {

struct ProjectPolicy {
  Policy policy;            // empty when no project file applies
  std::string projectFile;  // empty when none
};

class ProjectFiles {
 public:
  // `explicitFile`: --config; `disabled`: --no-config.
  ProjectFiles(std::optional<std::string> explicitFile, bool disabled)
      : explicitFile_(std::move(explicitFile)), disabled_(disabled) {}

  // The policy for an input ("-" is looked up from the working directory), or an error message
  // (already formatted with the project file's line and column) when its project file is broken.
  std::variant<ProjectPolicy, std::string> forInput(const std::string& inputPath);

 private:
  struct Loaded {
    std::optional<ProjectConfig> config;
    std::string error;
  };
  const Loaded& load(const std::string& file);

  std::optional<std::string> explicitFile_;
  bool disabled_;
  std::map<std::string, Loaded> cache_;  // by project file path: every input under it shares one parse
};

}  // namespace oomlint::cli
