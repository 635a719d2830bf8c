// OL420 lora-targets-narrowed: network_kwargs leaves layers out of the adapter, which the estimate does not cost.
#include "systems/aitk/checks/checks.h"
#include "systems/aitk/lora_targets.h"

namespace oomlint {

namespace {

template <class Words>
std::string listed(const Words& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "\"" : ", \"") + w + "\"";
  return "[" + out + "]";
}

}  // namespace

// The architecture's lora_params_per_rank counts every Linear of its blocks, less the UI preset's own filter
// (HiDream's MoE experts). A narrower adapter is smaller, and every layer it leaves out keeps only its weight
// for backward, not its input; by how much depends on which layers the words match (not modelled): the
// estimate's figure is the upper bound and its range reaches an adapter on no layer.
void checkLoraTargetsNarrowed(const AitkCheckContext& c, Findings& findings) {
  const auto filter = narrowingFilter(c.process);
  if (!filter) return;
  const Architecture* arch = c.process.arch;
  const std::string what = filter->key == "only_if_contains"
                               ? " adapts only the layers whose names hold one of these"
                               : " leaves the layers whose names hold one of these out" +
                                     (arch && !arch->loraIgnoreIfContains.empty()
                                          ? " (the preset's own filter is " + listed(arch->loraIgnoreIfContains) + ")"
                                          : std::string());
  findings.report(RuleId::OL420, filter->value->range, c.process.network.pathOf("network_kwargs").key(filter->key),
                  filter->key + " " + listed(filter->words) + what + "; the estimate counts AI Toolkit's default targets for " +
                      (arch ? std::string(arch->label) : std::string("this architecture")) +
                      ", so its figure is an upper bound (the range reaches an adapter on no layer)");
}

}  // namespace oomlint
