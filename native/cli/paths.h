// Paths as text, for finding the project file that governs an input. Lexical, as ruff's and ESLint's config
// discovery are: ".." takes away the folder before it and links are not followed, so `../other/job.yaml` is governed
// from `other/` up, never from the working folder it was named from. POSIX only, like the CLI; no std::filesystem,
// which links libstdc++'s streams and locales into the CLI and runs their initialisers at every start.
#pragma once

#include <string>
#include <string_view>

namespace oomlint::cli {

// `path` made absolute against the working folder and normalised: no ".", "..", or repeated and trailing '/'.
// Empty when the working folder cannot be read.
std::string absoluteNormalPath(std::string_view path);

// The folder holding a normalised absolute path ("/a/b" → "/a", "/a" → "/"); empty for "/".
std::string parentPath(const std::string& path);

// `folder` + '/' + `name`, for a normalised absolute folder.
std::string joinPath(const std::string& folder, std::string_view name);

// `path` relative to `folder`, both normalised and absolute, with ".." where `path` is not under it.
std::string relativePath(const std::string& path, const std::string& folder);

bool isRegularFile(const std::string& path);

}  // namespace oomlint::cli
