// The harness's output: estimate vs measured per component and phase as a text table, and as JSON.
// Plain C++ over the plan and measurement structs, so it is tested without a GPU.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "measurement.h"
#include "replay_plan.h"

namespace oomlint::harness {

void printPlan(std::FILE* out, const ReplayPlan& plan);
void printCapPlan(std::FILE* out, const CapPlan& cap);
void printDeviceFacts(std::FILE* out, const DeviceFacts& facts);
void printCase(std::FILE* out, const CaseResult& result);
// One line per case: peak estimate vs measured and the cap check, for a run over many cases.
void printSummary(std::FILE* out, const std::vector<CaseResult>& results);

// `facts` null for --plan-only.
std::string resultsJson(const DeviceFacts* facts, const std::vector<CaseResult>& results);

}  // namespace oomlint::harness
