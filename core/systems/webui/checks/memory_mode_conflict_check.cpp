// OL704 conflicting-webui-flags: two flags that choose the same thing differently (the attention, a
// memory manager's mode, or A1111's medvram beside lowvram). Each flag is compared with the one that
// chose before it.
#include "systems/webui/checks/checks.h"

namespace oomlint {

void checkMemoryModeConflicts(const WebUiCheckContext& c, Findings& findings) {
  const LaunchFlag* attention = nullptr;
  const LaunchFlag* loadMode = nullptr;
  Offload offload = Offload::Normal;
  for (const ReadFlag& f : c.setup.flags) {
    const LaunchFlag& flag = *f.written;
    auto report = [&](std::string message) { findings.report(RuleId::OL704, flag.range, KeyPath::of({"args"}), std::move(message)); };
    switch (f.choice) {
      case FlagChoice::Other: break;
      case FlagChoice::Attention:
        if (attention && attention->name != flag.name) {
          report("`" + flag.name + "` and `" + attention->name + "` both choose the attention; the first one A1111 tries wins, "
                 "so say only one");
        }
        attention = &flag;
        break;
      case FlagChoice::LoadMode:
        if (loadMode && loadMode->name != flag.name) {
          report("`" + flag.name + "` and `" + loadMode->name + "` are mutually exclusive memory modes");
        }
        loadMode = &flag;
        break;
      case FlagChoice::Offload:
        if (f.known->effect == FlagEffect::Lowvram) {
          if (offload == Offload::Medvram) report("`--lowvram` with `--medvram`: --lowvram already does everything --medvram does");
          offload = Offload::Lowvram;
        } else if (offload == Offload::Lowvram) {
          report("`" + flag.name + "` with `--lowvram`: --lowvram already does everything --medvram does");
        } else {
          offload = Offload::Medvram;
        }
        break;
    }
  }
}

}  // namespace oomlint
