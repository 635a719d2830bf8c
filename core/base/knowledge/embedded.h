// The rule pages (docs/rules/*.md) compiled into the native binary (see cmake/embed.cmake), so that
// `oomlint explain` and the SARIF output read nothing from disk. The WebAssembly build embeds none:
// the page fetches a rule's page from its own origin when one is opened.
#pragma once

#include <span>
#include <string_view>

namespace oomlint {

struct EmbeddedFile {
  std::string_view path;  // relative to the repository root, e.g. "docs/rules/OL201.md"
  std::string_view text;
};

std::span<const EmbeddedFile> embeddedFiles();  // defined in the generated embedded_files.cpp

// A rule's page by its code ("OL201"), empty when none is embedded.
std::string_view rulePage(std::string_view code);

}  // namespace oomlint
