// OL405 frames-off-grid, OL413 video-setting-on-image-model.
#include <cmath>

#include "systems/aitk/checks/checks.h"
#include "systems/aitk/checks/util.h"

namespace oomlint {

namespace {

void checkFrameCount(const TrainerProcess& p, const Node* value, const KeyPath& path, Findings& findings) {
  if (value == nullptr || !value->isNumber()) return;
  const double frames = value->number();
  if (frames <= 1 || frames != std::floor(frames)) return;
  const long n = static_cast<long>(frames);
  if (!p.arch->isVideo()) {
    findings.report(RuleId::OL413, value->range, path,
                    archLabel(p) + " is an image model: num_frames " + std::to_string(n) + " has no meaning for it; use 1");
    return;
  }
  if (!p.arch->frameGrid || p.arch->frameGrid->contains(n)) return;
  const FrameGrid& grid = *p.arch->frameGrid;
  const long below = grid.nearestBelow(n);
  const long above = below + grid.multiple;
  const long nearest = (n - below) <= (above - n) ? below : above;
  findings.report(RuleId::OL405, value->range, path,
                  std::to_string(n) + " frames is off " + archLabel(p) + "'s frame grid (" + grid.describe() +
                      ": its VAE compresses time by " + std::to_string(grid.multiple) + "); use " + std::to_string(below) +
                      " or " + std::to_string(above),
                  std::nullopt, Fix{path, std::to_string(n), std::to_string(nearest)});
}

}  // namespace

void checkFrames(const AitkCheckContext& c, Findings& findings) {
  const TrainerProcess& p = c.process;
  if (p.arch == nullptr) return;
  for (const auto& d : p.datasets) checkFrameCount(p, d.written("num_frames"), d.pathOf("num_frames"), findings);
  checkFrameCount(p, p.sample.written("num_frames"), p.sample.pathOf("num_frames"), findings);
  if (const Node* samples = p.sample.written("samples"); samples && samples->isSequence()) {
    const auto& items = samples->resolved()->items;
    for (std::size_t i = 0; i < items.size(); ++i) {
      const Node* item = items[i]->resolved();
      if (item->isMapping()) {
        checkFrameCount(p, item->find("num_frames"), p.sample.pathOf("samples").item(i).key("num_frames"), findings);
      }
    }
  }
}

}  // namespace oomlint
