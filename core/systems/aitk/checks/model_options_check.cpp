// OL302 flux-only-option, OL304 adapter-conflict, OL310 no-wan22-stage, OL311 unsupported-on-wan,
// OL408 model-dtype-overridden.
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

bool explicitlyFalse(const Node* map, std::string_view key) {
  const Node* v = map ? map->find(key) : nullptr;
  return v != nullptr && v->isScalar() && !v->truthy() && !v->isNull();
}

}  // namespace

void checkModelOptions(const AitkCheckContext& c, Findings& findings) {
  const TrainerProcess& p = c.process;
  const Section& m = p.model;
  const bool wan = p.arch && p.arch->wanFamily;
  if (p.arch && !p.arch->fluxFamily) {
    for (std::string_view key : {"attn_masking", "split_model_over_gpus"}) {
      if (!m.flag(key) || (wan && key == "split_model_over_gpus")) continue;
      findings.report(RuleId::OL302, m.keyRange(key), m.pathOf(key),
                      "AI Toolkit raises \"" + std::string(key) + " is only supported with flux models currently\" (this "
                      "model is " + archLabel(p) + ")");
    }
    if (const Node* decorator = p.process.written("decorator"); decorator && !decorator->isNull()) {
      findings.report(RuleId::OL302, p.process.keyRange("decorator"), p.process.pathOf("decorator"),
                      "AI Toolkit raises \"Decorators are only supported for Flux models currently\" (this model is " +
                          archLabel(p) + ")");
    }
  }

  const bool ara = m.string("qtype").find('|') != std::string::npos || !m.string("accuracy_recovery_adapter").empty();
  if (ara && !m.string("assistant_lora_path").empty()) {
    findings.report(RuleId::OL304, m.keyRange("assistant_lora_path"), m.pathOf("assistant_lora_path"),
                    "AI Toolkit raises \"Cannot use accuracy recovery adapter and assistant lora at the same time\"; "
                    "drop the assistant LoRA or use a qtype without `|adapter`");
  }

  if (p.arch && (p.arch->arch == "wan22_14b" || p.arch->arch == "wan22_14b_i2v")) {
    const Node* kwargs = m.written("model_kwargs");
    if (explicitlyFalse(kwargs, "train_high_noise") && explicitlyFalse(kwargs, "train_low_noise")) {
      findings.report(RuleId::OL310, m.keyRange("model_kwargs"), m.pathOf("model_kwargs"),
                      "AI Toolkit raises \"At least one of train_high_noise or train_low_noise must be True in "
                      "model.model_kwargs\"");
    }
  }

  if (wan) {
    for (std::string_view key : {"assistant_lora_path", "lora_path"}) {
      if (m.string(key).empty()) continue;
      findings.report(RuleId::OL311, m.keyRange(key), m.pathOf(key),
                      code(key) + " is not supported by the Wan models; AI Toolkit raises at load");
    }
    if (m.flag("split_model_over_gpus")) {
      findings.report(RuleId::OL311, m.keyRange("split_model_over_gpus"), m.pathOf("split_model_over_gpus"),
                      "split_model_over_gpus is not supported by the Wan models; AI Toolkit raises at load");
    }
  }

  if (m.has("dtype") && m.written("dtype")->isScalar()) {
    const std::string modelDtype = m.string("dtype");
    const std::string trainDtype = p.train.string("dtype");
    if (!modelDtype.empty() && canonicalDtype(modelDtype) != canonicalDtype(trainDtype)) {
      findings.report(RuleId::OL408, m.keyRange("dtype"), m.pathOf("dtype"),
                      "model.dtype " + code(modelDtype) + " has no effect: AI Toolkit overwrites it with train.dtype (" +
                          (p.train.has("dtype") ? code(trainDtype) : "fp32 by default") + "); set train.dtype instead");
    }
  }
}

}  // namespace oomlint
