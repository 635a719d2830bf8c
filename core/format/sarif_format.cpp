#include "format/formatters.h"

namespace oomlint {

// TODO(helper): implemented in this session.
std::string formatSarif(const Report&) { return {}; }

}  // namespace oomlint
