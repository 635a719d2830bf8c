// libFuzzer target: the bytes as a YAML job config (the `run.py` file), through the whole pipeline —
// read, check, estimate, plan — then every formatter, the same bytes as a project file (.oomlint.yaml)
// governing the config, and `oomlint fix`. Build and run: scripts/fuzz.sh config_yaml [SECONDS].
// fuzz-seeds: yaml
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "analyze.h"
#include "base/document/reader.h"
#include "fuzz_support.h"
#include "policy/policy.h"
#include "base/text/source_text.h"

using namespace oomlint;

namespace {

// A crash log in the training step on a 24 GiB card, for the `--log` variant.
const LogAnalysis& attachedLog() {
  static const LogAnalysis log = analyzeLog(
      "Running 1 job\n"
      "my_lora:  41%|####      | 820/2000 [27:04<38:55,  1.98s/it, lr: 1.0e-04 loss: 3.1e-01]\n"
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB. GPU 0 has a total capacity of "
      "23.55 GiB of which 1.02 GiB is free. Of the allocated memory 18.20 GiB is allocated by PyTorch, and 3.41 GiB "
      "is reserved by PyTorch but unallocated.\n");
  return log;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  // analyze() reads text that opens with `{` or `[` as JSON: give the YAML reader those too (flow
  // style), with the preconditions readDocument checks first.
  if (looksLikeJson(text) && size <= ReadLimits{}.maxBytes && !firstInvalidUtf8(text)) {
    (void)readYaml(std::make_shared<const SourceText>(text), ReadLimits{});
  }

  // Three ways the CLI runs a config, chosen by the input's size so each input has exactly one.
  AnalyzeOptions options;
  switch (size % 3) {
    case 0:                                            // --vram 24 --ram 32: the estimate findings and both plans
      options.vramGib = 24;
      options.ramGib = 32;
      break;
    case 1: options.gpu = "RTX 3060 12GB"; break;      // --gpu NAME
    case 2: options.attachedLog = attachedLog(); break; // --log: the crash's phase and card shape the advice
  }
  const Input input{"fuzz/job.yaml", text};
  const Report report = analyze({input}, options);
  fuzz::checkReport(report);
  fuzz::formatAll(report);

  // The same bytes as a project file: where it parses, its policy governs the config.
  const ProjectConfigResult project = parseProjectConfig(text);
  if (project.problems.empty()) {
    AnalyzeOptions governed = options;
    governed.policy = project.config.policyFor("fuzz/job.yaml");
    fuzz::checkReport(analyze({input}, governed));
  }
  if (!report.files.empty() && !report.files.front().plan.empty()) fuzz::checkFix(input, options);
  return 0;
}
