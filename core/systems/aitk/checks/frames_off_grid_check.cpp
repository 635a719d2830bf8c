// OL405 frames-off-grid: a video frame count off the model's frame grid (its VAE's time compression).
#include "systems/aitk/checks/checks.h"
#include "systems/aitk/checks/util.h"

namespace oomlint {

void checkFramesOffGrid(const AitkCheckContext& c, Findings& findings) {
  const TrainerProcess& p = c.process;
  if (p.arch == nullptr || !p.arch->isVideo() || !p.arch->frameGrid) return;
  const FrameGrid& grid = *p.arch->frameGrid;
  forEachFrameCount(p, [&](const Node& value, long n, const KeyPath& path) {
    if (grid.contains(n)) return;
    const long below = grid.nearestBelow(n);
    const long above = below + grid.multiple;
    const long nearest = (n - below) <= (above - n) ? below : above;
    findings.report(RuleId::OL405, value.range, path,
                    std::to_string(n) + " frames is off " + archLabel(p) + "'s frame grid (" + grid.describe() +
                        ": its VAE compresses time by " + std::to_string(grid.multiple) + "); use " +
                        std::to_string(below) + " or " + std::to_string(above),
                    std::nullopt, Fix{path, std::to_string(n), std::to_string(nearest)});
  });
}

}  // namespace oomlint
