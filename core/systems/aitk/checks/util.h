// Small helpers shared by the check files.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>

#include "systems/aitk/job.h"
#include "base/text/ascii.h"

namespace oomlint {

inline std::string code(std::string_view s) { return "`" + std::string(s) + "`"; }

// The trigger word a process trains with: the process's, or any dataset's.
inline bool hasTriggerWord(const TrainerProcess& p) {
  if (!p.process.string("trigger_word").empty()) return true;
  return std::any_of(p.datasets.begin(), p.datasets.end(), [](const Section& d) { return !d.string("trigger_word").empty(); });
}

inline std::string archLabel(const TrainerProcess& p) {
  return p.arch ? (p.arch->label.empty() ? p.arch->arch : p.arch->label) : p.archWritten;
}

}  // namespace oomlint
