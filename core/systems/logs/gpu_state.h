// Whether an OOM is the GPU's or the worker's state rather than the config: another process on the
// card, memory held outside this process's PyTorch pool, or a small allocation failing with plenty free.
#pragma once

#include <string>
#include <vector>

#include "base/knowledge/knowledge_text.h"
#include "report/log_analysis.h"

namespace oomlint {

// Sets `gpuStateSuspect` and `gpuStateReason` of an analysis that found an OOM, from its figures; an OOM
// message with one of `cappedBy` names a memory cap, which explains a failure with plenty free.
void judgeGpuState(LogAnalysis& analysis, const std::vector<KnowledgeText>& cappedBy);

}  // namespace oomlint
