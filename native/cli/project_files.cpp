#include "cli/project_files.h"

#include "cli/input_files.h"
#include "cli/paths.h"

namespace oomlint::cli {

namespace {

constexpr std::size_t kMaxProjectFileBytes = 1 << 20;

// The nearest project file in `folder` or a folder above it (normalised and absolute: its parents are its ancestors).
std::optional<std::string> nearestProjectFile(std::string folder) {
  for (; !folder.empty(); folder = parentPath(folder)) {
    std::string candidate = joinPath(folder, kProjectConfigName);
    if (isRegularFile(candidate)) return candidate;
  }
  return std::nullopt;
}

}  // namespace

const ProjectFiles::Loaded& ProjectFiles::load(const std::string& file) {
  if (auto it = cache_.find(file); it != cache_.end()) return it->second;
  Loaded loaded;
  // Read as an input is, up to a byte past the limit (`file` is an absolute path: never "-", standard input).
  auto read = readInput(file, kMaxProjectFileBytes);
  if (const auto* failure = std::get_if<ReadFailure>(&read)) {
    loaded.error = file + ": cannot read the project file (" + failure->reason + ")";
  } else if (std::get<Input>(read).text.size() > kMaxProjectFileBytes) {
    loaded.error = file + ": the project file is larger than 1 MiB";
  } else {
    ProjectConfigResult parsed = parseProjectConfig(std::move(std::get<Input>(read).text));
    for (const auto& problem : parsed.problems) {
      loaded.error += (loaded.error.empty() ? "" : "\n") + file + ":" + std::to_string(problem.range.start.line) + ":" +
                      std::to_string(problem.range.start.column) + ": error: " + problem.message;
    }
    if (loaded.error.empty()) loaded.config = std::move(parsed.config);
  }
  return cache_.emplace(file, std::move(loaded)).first->second;
}

std::variant<ProjectPolicy, std::string> ProjectFiles::forInput(const std::string& inputPath) {
  if (disabled_) return ProjectPolicy{};
  const std::string input = absoluteNormalPath(inputPath == "-" ? "stdin" : inputPath);
  std::optional<std::string> file;
  if (explicitFile_) {
    file = absoluteNormalPath(*explicitFile_);
    if (!isRegularFile(*file)) return "cannot read the project file " + *explicitFile_;
  } else if (!input.empty()) {
    file = nearestProjectFile(parentPath(input));
  }
  if (!file) return ProjectPolicy{};
  const Loaded& loaded = load(*file);
  if (!loaded.config) return loaded.error;
  // Globs are relative to the project file's folder.
  return ProjectPolicy{loaded.config->policyFor(relativePath(input, parentPath(*file))), *file};
}

}  // namespace oomlint::cli
