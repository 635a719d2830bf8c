// One input as a front end hands it to the core: a name to echo back and the text.
#pragma once

#include <string>

namespace oomlint {

struct Input {
  std::string path;  // as the user named it ("-" for stdin); only echoed back
  std::string text;
};

}  // namespace oomlint
