#include "cli/project_files.h"

#include <filesystem>

#include "cli/input_files.h"

namespace oomlint::cli {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxProjectFileBytes = 1 << 20;

std::optional<fs::path> nearestProjectFile(const fs::path& start) {
  std::error_code ec;
  for (fs::path dir = start; !dir.empty(); dir = dir.parent_path()) {
    const fs::path candidate = dir / kProjectConfigName;
    if (fs::is_regular_file(candidate, ec)) return candidate;
    if (dir == dir.parent_path()) break;
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
  std::error_code ec;
  const fs::path input = inputPath == "-" ? fs::current_path(ec) / "stdin" : fs::absolute(inputPath, ec);
  std::optional<fs::path> file;
  if (explicitFile_) {
    file = fs::absolute(*explicitFile_, ec);
    if (!fs::is_regular_file(*file, ec)) return "cannot read the project file " + *explicitFile_;
  } else {
    file = nearestProjectFile(input.parent_path());
  }
  if (!file) return ProjectPolicy{};
  const Loaded& loaded = load(file->string());
  if (!loaded.config) return loaded.error;
  // Globs are relative to the project file's folder, with '/' on every platform.
  const std::string relative = input.lexically_relative(file->parent_path()).generic_string();
  return ProjectPolicy{loaded.config->policyFor(relative), file->string()};
}

}  // namespace oomlint::cli
