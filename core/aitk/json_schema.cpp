#include "aitk/json_schema.h"

namespace oomlint {

// TODO(helper): generated from knowledge().schema.
std::string jobJsonSchema() { return "{}\n"; }

}  // namespace oomlint
