#include "cli/paths.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <vector>

namespace oomlint::cli {

namespace {

std::string workingFolder() {
  std::string buffer(256, '\0');
  for (;;) {
    if (::getcwd(buffer.data(), buffer.size()) != nullptr) {
      buffer.resize(buffer.find('\0'));
      return buffer;
    }
    if (errno != ERANGE || buffer.size() > (1u << 20)) return {};
    buffer.resize(buffer.size() * 2);
  }
}

std::vector<std::string_view> components(std::string_view path) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (start < path.size()) {
    std::size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    if (end > start) parts.push_back(path.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

}  // namespace

std::string absoluteNormalPath(std::string_view path) {
  std::string joined;
  if (!path.starts_with('/')) {
    joined = workingFolder();
    if (joined.empty()) return {};
    joined += '/';
  }
  joined += path;
  std::vector<std::string_view> kept;
  for (std::string_view part : components(joined)) {
    if (part == ".") continue;
    if (part == "..") {
      if (!kept.empty()) kept.pop_back();  // "/.." is "/"
      continue;
    }
    kept.push_back(part);
  }
  std::string normal;
  for (std::string_view part : kept) (normal += '/') += part;
  return normal.empty() ? "/" : normal;
}

std::string parentPath(const std::string& path) {
  if (path == "/") return {};
  const std::size_t slash = path.rfind('/');
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string joinPath(const std::string& folder, std::string_view name) {
  std::string joined = folder;
  if (!joined.ends_with('/')) joined += '/';
  return joined += name;
}

std::string relativePath(const std::string& path, const std::string& folder) {
  const auto to = components(path);
  const auto from = components(folder);
  std::size_t common = 0;
  while (common < to.size() && common < from.size() && to[common] == from[common]) ++common;
  std::string relative;
  const auto append = [&](std::string_view part) {
    if (!relative.empty()) relative += '/';
    relative += part;
  };
  for (std::size_t i = common; i < from.size(); ++i) append("..");
  for (std::size_t i = common; i < to.size(); ++i) append(to[i]);
  return relative;
}

bool isRegularFile(const std::string& path) {
  struct stat status {};
  return ::stat(path.c_str(), &status) == 0 && S_ISREG(status.st_mode);
}

}  // namespace oomlint::cli
