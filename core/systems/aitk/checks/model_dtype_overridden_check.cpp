// OL408 model-dtype-overridden: model.dtype is overwritten by train.dtype.
#include "systems/aitk/checks/checks.h"
#include "systems/aitk/checks/util.h"

namespace oomlint {

namespace {

// train.dtype spellings that name the same torch dtype (toolkit/train_tools.py:get_torch_dtype).
std::string canonicalDtype(std::string_view dtype) {
  const std::string d = lowercase(dtype);
  if (d == "fp32" || d == "float" || d == "float32" || d == "single") return "float32";
  if (d == "fp16" || d == "half" || d == "float16") return "float16";
  if (d == "bf16" || d == "bfloat16") return "bfloat16";
  if (d == "8bit" || d == "e4m3fn" || d == "float8") return "float8";
  return d;
}

}  // namespace

void checkModelDtypeOverridden(const AitkCheckContext& c, Findings& findings) {
  const TrainerProcess& p = c.process;
  const Section& m = p.model;
  if (!m.has("dtype") || !m.written("dtype")->isScalar()) return;
  const std::string modelDtype = m.string("dtype");
  const std::string trainDtype = p.train.string("dtype");
  if (modelDtype.empty() || canonicalDtype(modelDtype) == canonicalDtype(trainDtype)) return;
  findings.report(RuleId::OL408, m.keyRange("dtype"), m.pathOf("dtype"),
                  "model.dtype " + code(modelDtype) + " has no effect: AI Toolkit overwrites it with train.dtype (" +
                      (p.train.has("dtype") ? code(trainDtype) : "fp32 by default") + "); set train.dtype instead");
}

}  // namespace oomlint
