#include "base/knowledge/embedded.h"

namespace oomlint {

std::optional<std::string_view> embeddedFile(std::string_view path) {
  for (const auto& file : embeddedFiles()) {
    if (file.path == path) return file.text;
  }
  return std::nullopt;
}

}  // namespace oomlint
