// `oomlint schema`: a JSON Schema (draft 2020-12) of the AI Toolkit job config, generated from the
// same schema data the linter checks with (rules/ai-toolkit/schema.yaml, and architectures.yaml for
// model.arch), so that editors with a YAML language server validate configs the way oomlint does.
// Editor set-up: docs/schema.md. Contract: tests/node/schema.test.mjs.
#pragma once

#include <string>

namespace oomlint {

std::string jobJsonSchema();

}  // namespace oomlint
