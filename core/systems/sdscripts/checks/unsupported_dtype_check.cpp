// OL810 unsupported-dtype: musubi-tuner converts --dit_dtype, --vae_dtype and --text_encoder_dtype with
// utils/model_utils.py str_to_dtype, which compares the string as written against its table and raises
// "Unsupported dtype" for anything else, before training starts (rules/musubi-tuner.yaml dtype_values).
#include <algorithm>

#include "systems/sdscripts/checks/checks.h"

namespace oomlint {

void checkUnsupportedDtype(const SdCheckContext& c, Findings& findings) {
  const auto& names = c.tool.dtypeNames;
  for (const SdArg& arg : c.current().args) {
    if (arg.known == nullptr || arg.values.empty()) continue;
    if (std::find(c.tool.dtypeArgs.begin(), c.tool.dtypeArgs.end(), arg.name) == c.tool.dtypeArgs.end()) continue;
    const std::string value = arg.text();
    if (std::find(names.begin(), names.end(), value) != names.end()) continue;
    findings.report(RuleId::OL810, arg.valueRange.value_or(arg.range), arg.path,
                    "`" + arg.written + " " + value + "`: str_to_dtype stops the script (\"Unsupported dtype: " + value +
                        "\"); it takes bf16, fp16, fp32 or fp8 (or bfloat16, float16, float32, float8_e4m3fn ...), as written");
  }
}

}  // namespace oomlint
