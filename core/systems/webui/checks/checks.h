// The registry of WebUI checks. Each rule (or tight family) lives in its own file and is listed once,
// in checks.cpp; nothing else knows the list. Checks read the setup (and the input, for ranges); they
// never derive a setting themselves.
#pragma once

#include <span>
#include <string_view>

#include "base/knowledge/advice.h"
#include "base/knowledge/webui.h"
#include "report/findings.h"
#include "systems/webui/generation_estimate.h"
#include "systems/webui/setup.h"
#include "systems/webui/webui_input.h"

namespace oomlint {

// What a check of the input reads.
struct WebUiCheckContext {
  const WebUiInput& input;
  const GenerationSetup& setup;
  const WebUiKnowledge& webui;
};

// What a check of the estimate reads (run when a GPU was given).
struct WebUiEstimateContext {
  const WebUiInput& input;
  const GenerationSetup& setup;
  const GenerationEstimate& estimate;
  Range anchor;  // where the estimate's findings go when nothing closer says it (the verdict's range)
  const WebUiKnowledge& webui;
  const Advice& advice;
};

using WebUiCheck = void (*)(const WebUiCheckContext&, Findings&);
using WebUiEstimateCheck = void (*)(const WebUiEstimateContext&, Findings&);

template <typename Check>
struct WebUiCheckEntry {
  std::string_view name;
  Check run;
};

// Checks of the flags and settings, run on every input.
std::span<const WebUiCheckEntry<WebUiCheck>> webuiChecks();
// Checks of the estimate: how the generation runs on the GPU.
std::span<const WebUiCheckEntry<WebUiEstimateCheck>> webuiEstimateChecks();

void checkUnknownFlags(const WebUiCheckContext&, Findings&);       // OL701
void checkIgnoredFlags(const WebUiCheckContext&, Findings&);       // OL702
void checkDeprecatedFlags(const WebUiCheckContext&, Findings&);    // OL703
void checkMemoryModeConflicts(const WebUiCheckContext&, Findings&);  // OL704
void checkFp32(const WebUiCheckContext&, Findings&);               // OL705
void checkProfile(const WebUiCheckContext&, Findings&);            // OL706
void checkFamily(const WebUiCheckContext&, Findings&);             // OL707

void checkAssumedModel(const WebUiEstimateContext&, Findings&);    // OL706 (info)
void checkSlowOffload(const WebUiEstimateContext&, Findings&);     // OL708

}  // namespace oomlint
