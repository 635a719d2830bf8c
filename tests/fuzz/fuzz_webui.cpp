// libFuzzer target: the bytes as a WebUI input (issue #8): a launch line, an A1111 parameters block or
// a generation profile, each framed the way users paste it, through reading, the flag checks, the
// generation estimate, the fix plan, every formatter and `oomlint fix`. The framing is chosen from the
// input's hash, so a crash file replays exactly. scripts/fuzz.sh webui [SECONDS].
// fuzz-seeds: yaml
#include <cstddef>
#include <cstdint>
#include <string>

#include "analyze.h"
#include "fuzz_support.h"
#include "base/knowledge/knowledge.h"
#include "systems/webui/system.h"
#include "systems/webui/webui_input.h"

using namespace oomlint;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  const std::uint64_t h = fuzz::hashOf(bytes);
  static const char* const frames[] = {
      "",                                             // as pasted: whatever it is
      "@echo off\r\nset COMMANDLINE_ARGS=",           // webui-user.bat
      "export COMMANDLINE_ARGS=\"",                   // webui-user.sh
      "python main.py ",                              // ComfyUI's command
      "Steps: 20, Sampler: Euler a, Size: 512x512, ", // a parameters block
      "generation:\n  ",                              // a generation profile
  };
  const std::string text = frames[h % 6] + bytes;
  static const char* const gpus[] = {"GTX 1050 Ti", "RTX 3060 8GB", "RTX 4090"};
  AnalyzeOptions options;
  options.gpu = gpus[(h >> 8) % 3];

  const Input input{"fuzz/webui-user.bat", text};
  const WebUiInput read = readWebUiInput(text);
  for (const auto& flag : read.flags) fuzz::checkRange(flag.range, read.source->size());
  for (const auto& field : read.info) fuzz::checkRange(field.range, read.source->size());

  Report report;
  const SystemContext context{knowledge(), resolveGpu(options), true, nullptr, options.limits, ((h >> 16) & 1) != 0};
  report.files.push_back(WebUiSystem{}.analyze(input, context));
  fuzz::checkReport(report);
  fuzz::formatAll(report);
  // Through the content detection too, as the CLI and the page see it.
  fuzz::checkReport(analyze({input}, options));
  if (!report.files.front().plan.empty()) fuzz::checkFix(input, options);
  return 0;
}
