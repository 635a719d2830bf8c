// The registry of AI Toolkit checks. Each rule lives in its own file, <rule_name>_check.cpp, and is listed
// once, in checks.cpp; nothing else knows the list. The schema rules (OL105, OL201-OL206, OL208) share one
// walk of the document, in schema_check.cpp. A check reads the job and the knowledge it is given, never
// the global knowledge(), so it runs as well on synthetic data.
#pragma once

#include <span>
#include <string_view>

#include "base/knowledge/knowledge.h"
#include "report/findings.h"
#include "systems/aitk/job.h"

namespace oomlint {

// What a check of the job as a whole reads: the schema walk (job.root is the document as written, every
// process included) and the job-level requirements.
struct AitkJobCheckContext {
  const JobModel& job;
  const Knowledge& knowledge;
};

// What a check of one trainer process reads (OL3xx start-up errors, OL4xx traps).
struct AitkCheckContext {
  const TrainerProcess& process;
  const Knowledge& knowledge;
};

using AitkJobCheck = void (*)(const AitkJobCheckContext&, Findings&);
using AitkCheck = void (*)(const AitkCheckContext&, Findings&);

template <typename Check>
struct AitkCheckEntry {
  std::string_view name;  // the rule's name in rules/catalog.yaml
  Check run;
};

// Checks run once per job.
std::span<const AitkCheckEntry<AitkJobCheck>> aitkJobChecks();
// Checks run on each trainer process.
std::span<const AitkCheckEntry<AitkCheck>> aitkTrainerChecks();

}  // namespace oomlint
