#include "cli/input_files.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <sys/stat.h>
#include <variant>
#include <vector>

#include "base/knowledge/knowledge.h"

namespace oomlint::cli {

namespace {
constexpr std::size_t kLogHeadBytes = 64 * 1024;
}  // namespace

bool inputIsLog(const std::string& path) {
  if (path == "-") return false;
  std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) return false;
  // Left uninitialised: a zeroed 64 KiB buffer faulted in 16 pages for a config of a few KB.
  const std::unique_ptr<char[]> head(new char[kLogHeadBytes]);
  return isLogText(std::string_view(head.get(), std::fread(head.get(), 1, kLogHeadBytes, file.get())));
}

bool readsAsLog(const std::string& path, std::string_view text) { return path != "-" && isLogText(text.substr(0, kLogHeadBytes)); }

std::variant<LogAnalysis, ReadFailure> scanLog(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return ReadFailure{path, std::strerror(errno)};
  if (S_ISDIR(info.st_mode)) return ReadFailure{path, "is a directory"};
  std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) return ReadFailure{path, std::strerror(errno)};
  LogScanner scanner(*knowledge().logs);
  std::vector<char> buffer(1 << 17);
  while (const std::size_t n = std::fread(buffer.data(), 1, buffer.size(), file.get())) {
    scanner.feed(std::string_view(buffer.data(), n));
  }
  if (std::ferror(file.get())) return ReadFailure{path, "read error"};
  return scanner.finish();
}

std::variant<Input, ReadFailure> readInput(const std::string& path, std::size_t maxBytes) {
  const bool isStdin = path == "-";
  Input input{isStdin ? "<stdin>" : path, {}};
  if (!isStdin) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) return ReadFailure{path, std::strerror(errno)};
    if (S_ISDIR(info.st_mode)) return ReadFailure{path, "is a directory"};
  }
  std::unique_ptr<FILE, int (*)(FILE*)> file(isStdin ? stdin : std::fopen(path.c_str(), "rb"),
                                             isStdin ? [](FILE*) { return 0; } : &std::fclose);
  if (!file) return ReadFailure{path, std::strerror(errno)};
  char buffer[1 << 16];
  while (input.text.size() <= maxBytes) {
    const std::size_t n = std::fread(buffer, 1, sizeof buffer, file.get());
    if (n == 0) break;
    input.text.append(buffer, std::min(n, maxBytes + 1 - input.text.size()));
  }
  if (std::ferror(file.get())) return ReadFailure{path, "read error"};
  return input;
}

}  // namespace oomlint::cli
