// OL413 video-setting-on-image-model: a frame count above 1 on an image model.
#include "systems/aitk/checks/checks.h"
#include "systems/aitk/checks/util.h"

namespace oomlint {

void checkVideoSettingOnImageModel(const AitkCheckContext& c, Findings& findings) {
  const TrainerProcess& p = c.process;
  if (p.arch == nullptr || p.arch->isVideo()) return;
  forEachFrameCount(p, [&](const Node& value, long n, const KeyPath& path) {
    findings.report(RuleId::OL413, value.range, path,
                    archLabel(p) + " is an image model: num_frames " + std::to_string(n) + " has no meaning for it; use 1");
  });
}

}  // namespace oomlint
