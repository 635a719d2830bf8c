// The registry of sd-scripts checks. Each rule lives in its own file and is listed once, in checks.cpp.
// Checks read the job (for what is written where) and the setup (for what the script makes of it); they
// report only what lies in the file being analysed, so each file of a job gets its own findings.
#pragma once

#include <span>
#include <string_view>

#include "base/knowledge/trainer_args.h"
#include "report/findings.h"
#include "systems/sdscripts/job.h"
#include "systems/sdscripts/setup.h"

namespace oomlint {

struct SdCheckContext {
  const SdJob& job;
  const SdSetup& setup;
  std::size_t file;  // the file being analysed (job.files[file])
  const TrainerTool& tool;

  const SdFile& current() const { return job.files[file]; }
  // The argument that set a setting, when it is written in this file.
  const SdArg* here(const SdArg* arg) const { return arg != nullptr && arg->file == file ? arg : nullptr; }
};

using SdCheck = void (*)(const SdCheckContext&, Findings&);

struct SdCheckEntry {
  std::string_view name;
  SdCheck run;
};

std::span<const SdCheckEntry> sdScriptsChecks();

void checkUnknownArguments(const SdCheckContext&, Findings&);           // OL801
void checkAccelerateOnlyPrecision(const SdCheckContext&, Findings&);    // OL802
void checkDeprecatedSplitMode(const SdCheckContext&, Findings&);        // OL803
void checkOffloadCheckpointingWithSwap(const SdCheckContext&, Findings&);  // OL804
void checkAssumedScript(const SdCheckContext&, Findings&);              // OL805
void checkLowram(const SdCheckContext&, Findings&);                     // OL806
void checkVariableScript(const SdCheckContext&, Findings&);             // OL807
void checkUnmodelledModel(const SdCheckContext&, Findings&);            // OL808
void checkFusedBackwardPass(const SdCheckContext&, Findings&);          // OL809
void checkUnsupportedDtype(const SdCheckContext&, Findings&);           // OL810

}  // namespace oomlint
