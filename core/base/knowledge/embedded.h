// Files from rules/ and docs/rules/ compiled into the binary (see cmake/embed.cmake), so neither
// the CLI nor the WASM page reads knowledge from disk or the network.
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace oomlint {

struct EmbeddedFile {
  std::string_view path;  // relative to the repository root, e.g. "rules/catalog.yaml"
  std::string_view text;
};

std::span<const EmbeddedFile> embeddedFiles();  // defined in the generated embedded_files.cpp

std::optional<std::string_view> embeddedFile(std::string_view path);

}  // namespace oomlint
