#include "cli/input_files.h"

#include <algorithm>
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

constexpr std::size_t kLogHeadBytes = 64 * 1024;  // what decides whether an input is a log

using File = std::unique_ptr<FILE, int (*)(FILE*)>;

// The file to read: stdin for "-"; a missing file or a directory is a failure with its reason.
std::variant<File, ReadFailure> openInput(const std::string& path) {
  if (path == "-") return File(stdin, [](FILE*) { return 0; });
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return ReadFailure{path, std::strerror(errno)};
  if (S_ISDIR(info.st_mode)) return ReadFailure{path, "is a directory"};
  File file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) return ReadFailure{path, std::strerror(errno)};
  return file;
}

// The rest of a log through the scanner, in chunks: memory stays bounded whatever its size.
std::variant<LogAnalysis, ReadFailure> scanRest(const std::string& path, FILE* file, LogScanner& scanner) {
  std::vector<char> buffer(1 << 17);
  while (const std::size_t n = std::fread(buffer.data(), 1, buffer.size(), file)) scanner.feed(std::string_view(buffer.data(), n));
  if (std::ferror(file)) return ReadFailure{path, "read error"};
  return scanner.finish();
}

// The rest of a config after `input.text`, up to a byte past the limit.
std::variant<Input, ReadFailure> readRest(const std::string& path, FILE* file, Input input, std::size_t maxBytes) {
  char buffer[1 << 16];
  while (input.text.size() <= maxBytes) {
    const std::size_t n = std::fread(buffer, 1, sizeof buffer, file);
    if (n == 0) break;
    input.text.append(buffer, std::min(n, maxBytes + 1 - input.text.size()));
  }
  if (std::ferror(file)) return ReadFailure{path, "read error"};
  return input;
}

Input emptyInput(const std::string& path) { return Input{path == "-" ? "<stdin>" : path, {}}; }

}  // namespace

std::variant<LogAnalysis, ReadFailure> scanLog(const std::string& path) {
  auto opened = openInput(path);
  if (auto* failure = std::get_if<ReadFailure>(&opened)) return *failure;
  LogScanner scanner(*knowledge().logs);
  return scanRest(path, std::get<File>(opened).get(), scanner);
}

std::variant<Input, ReadFailure> readInput(const std::string& path, std::size_t maxBytes) {
  auto opened = openInput(path);
  if (auto* failure = std::get_if<ReadFailure>(&opened)) return *failure;
  return readRest(path, std::get<File>(opened).get(), emptyInput(path), maxBytes);
}

std::variant<Input, LogAnalysis, ReadFailure> readConfigOrLog(const std::string& path, std::size_t maxBytes) {
  auto opened = openInput(path);
  if (auto* failure = std::get_if<ReadFailure>(&opened)) return *failure;
  FILE* file = std::get<File>(opened).get();
  const std::unique_ptr<char[]> head(new char[kLogHeadBytes]);  // uninitialised: only what is read is touched
  const std::string_view first(head.get(), std::fread(head.get(), 1, kLogHeadBytes, file));
  if (path != "-" && isLogText(first)) {
    LogScanner scanner(*knowledge().logs);
    scanner.feed(first);
    auto scanned = scanRest(path, file, scanner);
    if (auto* failure = std::get_if<ReadFailure>(&scanned)) return *failure;
    return std::get<LogAnalysis>(std::move(scanned));
  }
  Input input = emptyInput(path);
  input.text.assign(first.substr(0, std::min(first.size(), maxBytes + 1)));
  // Most configs are read whole with their head: no call with a 64 KiB buffer on the stack (fresh stack pages).
  if (first.size() < kLogHeadBytes && std::feof(file) && !std::ferror(file)) return input;
  auto read = readRest(path, file, std::move(input), maxBytes);
  if (auto* failure = std::get_if<ReadFailure>(&read)) return *failure;
  return std::get<Input>(std::move(read));
}

}  // namespace oomlint::cli
