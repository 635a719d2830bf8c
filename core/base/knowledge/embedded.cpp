#include "base/knowledge/embedded.h"

namespace oomlint {

std::string_view rulePage(std::string_view code) {
  constexpr std::string_view kDir = "docs/rules/", kExtension = ".md";
  for (const auto& file : embeddedFiles()) {
    const std::string_view path = file.path;
    if (path.size() == kDir.size() + code.size() + kExtension.size() && path.starts_with(kDir) && path.ends_with(kExtension) &&
        path.substr(kDir.size(), code.size()) == code) {
      return file.text;
    }
  }
  return {};
}

}  // namespace oomlint
