// Which layers a job's LoRA adapts, as far as oomlint knows: network_kwargs' filters (AI Toolkit's
// toolkit/lora_special.py tests each module's name against ignore_if_contains and only_if_contains).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "systems/aitk/job.h"

namespace oomlint {

// A filter that leaves out layers the architecture's lora_params_per_rank counts (OL420).
struct NarrowingFilter {
  const Node* value = nullptr;     // the filter's list as written
  std::string key;                 // only_if_contains | ignore_if_contains
  std::vector<std::string> words;  // as written, in order
};

// The filter that narrows the process's adapter: only_if_contains, else an ignore_if_contains other than the
// architecture preset's own (in any order). None on a job without network_kwargs or with the preset's.
std::optional<NarrowingFilter> narrowingFilter(const TrainerProcess& process);

}  // namespace oomlint
