// OL705 fp32-costs-memory: a flag that keeps the model or the VAE in fp32 where an fp16 fix exists.
#include "systems/webui/checks/checks.h"

namespace oomlint {

void checkFp32(const WebUiCheckContext& c, Findings& findings) {
  const GenerationSetup& s = c.setup;
  if (s.vaeFp32Fallback && s.fp32VaeFlag) {
    findings.report(RuleId::OL705, s.fp32VaeFlag->range, KeyPath::of({"args"}),
                    "`" + s.fp32VaeFlag->name + "` keeps the SDXL VAE in fp32, doubling its decode memory; "
                    "the fp16-fix VAE (madebyollin/sdxl-vae-fp16-fix) decodes in fp16 without NaNs");
  }
  if (s.fp32WeightsFlag && !s.upcastSampling) {
    const LaunchFlag& f = *s.fp32WeightsFlag;
    findings.report(RuleId::OL705, f.range, KeyPath::of({"args"}),
                    "`" + f.name + (f.value.empty() ? "" : " " + f.value) +
                        "` keeps the model in fp32: twice the weights and activations; --upcast-sampling "
                        "gives the same fix for black images with fp16 weights");
  }
}

}  // namespace oomlint
