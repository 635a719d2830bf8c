// libFuzzer target: the bytes as a command-line trainer's input (issue #20): a TOML read on its own (every
// range inside the text), then framed as an sd-scripts / musubi-tuner command line, --config_file TOML,
// dataset TOML or kohya_ss GUI JSON, alone and as one job with a second file, through reading, the checks,
// the estimate, the plan, every formatter and `oomlint fix`. scripts/fuzz.sh trainer [SECONDS].
// fuzz-seeds: yaml json
#include <cstddef>
#include <cstdint>
#include <string>

#include "analyze.h"
#include "base/document/reader.h"
#include "fuzz_support.h"

using namespace oomlint;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  const std::uint64_t h = fuzz::hashOf(bytes);
  const auto toml = readTomlDocument(bytes);
  for (const Node& node : toml->nodes()) fuzz::checkRange(node.range, toml->source().size());
  static const char* const frames[] = {
      "",                                                                         // as pasted
      "accelerate launch --mixed_precision bf16 flux_train_network.py \\\n  ",     // an sd-scripts command line
      "accelerate launch wan_train_network.py --task t2v-1.3B ^\n  ",              // musubi-tuner, cmd continuation
      "[general]\nresolution = 1024\n[[datasets]]\nimage_dir = \"x\"\n",           // an sd-scripts dataset TOML
      "[model]\ndit = \"wan.safetensors\"\n",                                       // a musubi-tuner config
      "{\"LoRA_type\": \"Flux1\", \"flux1_checkbox\": true, ",                      // a kohya_ss GUI JSON
  };
  const std::string text = frames[h % 6] + bytes;
  AnalyzeOptions options;
  options.vramGib = 8 + static_cast<double>((h >> 8) % 4) * 8;
  const Input input{"fuzz/train.sh", text};
  fuzz::checkReport(analyze({input}, options));
  // As one job with a dataset TOML beside it.
  const Input dataset{"fuzz/dataset.toml", "[general]\nbatch_size = 2\nresolution = [768, 512]\n[[datasets]]\nimage_dir = \"x\"\n"};
  const Report job = analyze({input, dataset}, options);
  fuzz::checkReport(job);
  fuzz::formatAll(job);
  if (!job.files.empty() && !job.files.front().plan.empty()) fuzz::checkFix(input, options);
  return 0;
}
