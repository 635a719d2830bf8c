// `oomlint schema`: a JSON Schema (draft 2020-12) of the AI Toolkit job config, generated from the
// same schema data the linter checks with (rules/ai-toolkit/schema.yaml), so that editors with a YAML
// language server validate configs the way oomlint does.
#pragma once

#include <string>

namespace oomlint {

std::string jobJsonSchema();

}  // namespace oomlint
