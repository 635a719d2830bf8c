// One-line summaries shared by the line-oriented formats (gcc, github).
#pragma once

#include <cstdint>
#include <string>

#include "report/report.h"

namespace oomlint {

// "estimate on RTX 4090 (23.5 GiB): peak 40.0 GiB ± 8.5 in train_step — oom"; empty without an estimate.
std::string estimateSummary(const FileReport& file);

// "host RAM on a 32 GiB machine: peak 36.4 GiB ± 2.4 in quantize — borderline"; "… — unknown (give --ram)"
// without the RAM; empty without a host estimate.
std::string hostSummary(const FileReport& file);

// "[OL201 unknown-key]" style label: the code and, when the catalog knows it, the rule's name.
std::string ruleLabel(RuleId code);

// An estimate's byte figure as the integer the JSON contract wants, rounded, and clamped to the int64
// range: an absurd config (a resolution of 1e19) must not overflow the cast. Signed: a ramp-up step's
// saving is negative.
std::int64_t byteCount(double bytes);

}  // namespace oomlint
