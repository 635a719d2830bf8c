#include "format/formatters.h"

namespace oomlint {

// TODO(helper): implemented in this session.
std::string formatJunit(const Report&) { return {}; }

}  // namespace oomlint
