// OL403 sampler-mismatch: sample.sampler does not match train.noise_scheduler.
#include "systems/aitk/checks/checks.h"
#include "systems/aitk/checks/util.h"

namespace oomlint {

void checkSamplerMismatch(const AitkCheckContext& c, Findings& findings) {
  const TrainerProcess& p = c.process;
  const Section& t = p.train;
  if (!p.sample.present() || t.flag("disable_sampling") || !(p.sample.has("sampler") || t.has("noise_scheduler"))) return;
  const std::string sampler = lowercase(p.sample.string("sampler"));
  const std::string scheduler = lowercase(t.string("noise_scheduler"));
  if (sampler.empty() || scheduler.empty() || sampler == scheduler) return;
  const bool atSampler = p.sample.has("sampler");
  findings.report(RuleId::OL403, atSampler ? p.sample.valueRange("sampler") : t.valueRange("noise_scheduler"),
                  atSampler ? p.sample.pathOf("sampler") : t.pathOf("noise_scheduler"),
                  "sample.sampler is " + code(sampler) + (p.sample.has("sampler") ? "" : " (default)") +
                      " but train.noise_scheduler is " + code(scheduler) + (t.has("noise_scheduler") ? "" : " (default)") +
                      ": previews are made with another scheduler than the one trained; make them match",
                  std::nullopt,
                  atSampler ? std::optional(Fix{p.sample.pathOf("sampler"), jsonString(p.sample.string("sampler")),
                                                jsonString(t.string("noise_scheduler"))})
                            : std::nullopt);
}

}  // namespace oomlint
