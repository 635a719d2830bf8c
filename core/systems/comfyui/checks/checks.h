// The registry of ComfyUI workflow checks. Each rule lives in its own file and is listed once, in
// checks.cpp; nothing else knows the list. Checks read the setup (and the workflow, for ranges).
#pragma once

#include <span>
#include <string_view>

#include "base/knowledge/advice.h"
#include "report/findings.h"
#include "systems/comfyui/setup.h"
#include "systems/webui/generation_estimate.h"

namespace oomlint {

struct WorkflowCheckContext {
  const Workflow& workflow;
  const WorkflowSetup& setup;
};

// What a check of the estimate reads (run when a GPU was given).
struct WorkflowEstimateContext {
  const Workflow& workflow;
  const WorkflowSetup& setup;
  const GenerationEstimate& estimate;
  const Advice& advice;
  bool editable;  // the workflow is its own file (not a PNG's chunk): fixes can be written into it
};

using WorkflowCheck = void (*)(const WorkflowCheckContext&, Findings&);
using WorkflowEstimateCheck = void (*)(const WorkflowEstimateContext&, Findings&);

template <typename Check>
struct WorkflowCheckEntry {
  std::string_view name;
  Check run;
};

std::span<const WorkflowCheckEntry<WorkflowCheck>> workflowChecks();
std::span<const WorkflowCheckEntry<WorkflowEstimateCheck>> workflowEstimateChecks();

void checkNodesNotCosted(const WorkflowCheckContext&, Findings&);      // OL901
void checkLatentForAnotherModel(const WorkflowCheckContext&, Findings&);  // OL902
void checkVaeLatentMismatch(const WorkflowCheckContext&, Findings&);   // OL903
void checkNotEstimated(const WorkflowCheckContext&, Findings&);        // OL904
void checkUnreadValues(const WorkflowCheckContext&, Findings&);       // OL905 (a warning)
void checkWorkflowSlowOffload(const WorkflowEstimateContext&, Findings&);  // OL708

}  // namespace oomlint
