// OL406 size-not-divisible: sample sizes snap down to the model's bucket divisibility.
#include <cmath>

#include "systems/aitk/checks/checks.h"
#include "systems/aitk/checks/util.h"

namespace oomlint {

namespace {

void checkSize(const TrainerProcess& p, const Node* value, const KeyPath& path, Findings& findings) {
  if (value == nullptr || !value->isNumber()) return;
  const double size = value->number();
  const long step = p.arch->bucketDivisibility;
  // Beyond 2^53 every double is a whole number and no GPU renders it: leave such sizes to OL5xx.
  if (size < step || size != std::floor(size) || step <= 1 || size > 9.0e15) return;
  const long n = static_cast<long>(size);
  if (n % step == 0) return;
  const long down = n / step * step;
  findings.report(RuleId::OL406, value->range, path,
                  std::to_string(n) + " is not a multiple of " + std::to_string(step) + " (" + archLabel(p) +
                      "'s divisibility): the image is made at " + std::to_string(down) + "; write " +
                      std::to_string(down) + " or " + std::to_string(down + step),
                  std::nullopt, Fix{path, std::to_string(n), std::to_string(down)});
}

}  // namespace

void checkSizeNotDivisible(const AitkCheckContext& c, Findings& findings) {
  const TrainerProcess& p = c.process;
  if (p.arch == nullptr || !p.sample.present()) return;
  for (std::string_view key : {"width", "height"}) checkSize(p, p.sample.written(key), p.sample.pathOf(key), findings);
  if (const Node* samples = p.sample.written("samples"); samples && samples->isSequence()) {
    const auto& items = samples->resolved()->items;
    for (std::size_t i = 0; i < items.size(); ++i) {
      const Node* item = items[i]->resolved();
      if (!item->isMapping()) continue;
      for (std::string_view key : {"width", "height"}) {
        checkSize(p, item->find(key), p.sample.pathOf("samples").item(i).key(key), findings);
      }
    }
  }
}

}  // namespace oomlint
