// libFuzzer target: the bytes as a console log, through the streaming LogScanner in chunks of random
// sizes (from one byte to more than the input, as reads of a pipe or a file cut it), which must give
// exactly what one whole-text scan gives, as must a scan that parses every progress-bar redraw; then
// the log's report through every formatter, and the log attached to a config (`--log`).
// scripts/fuzz.sh log [SECONDS].
// fuzz-seeds: log
// fuzz-options: -max_len=140000
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "analyze.h"
#include "base/knowledge/knowledge.h"
#include "fuzz_support.h"

using namespace oomlint;

namespace {

const std::string& config() {
  static const std::string text =
      "job: extension\n"
      "config:\n"
      "  name: fuzz_lora\n"
      "  process:\n"
      "    - type: sd_trainer\n"
      "      network: {type: lora, linear: 16, linear_alpha: 16}\n"
      "      datasets: [{folder_path: /data, resolution: [512, 768, 1024]}]\n"
      "      train: {batch_size: 2, steps: 2000, gradient_checkpointing: true, optimizer: adamw8bit, dtype: bf16}\n"
      "      model: {name_or_path: black-forest-labs/FLUX.1-dev, arch: flux, quantize: true}\n"
      "      sample: {sample_every: 250, width: 1024, height: 1024, samples: [{prompt: a bear}]}\n";
  return text;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const LogAnalysis whole = analyzeLog(text);

  // The same bytes in chunks: small ones often (tqdm's '\r', "\r\n" and a line cut anywhere), large ones too.
  fuzz::Rng rng(fuzz::hashOf(text));
  LogScanner scanner(*knowledge().logs);
  for (std::size_t pos = 0; pos < size;) {
    const std::uint64_t r = rng.next();
    const std::size_t max = (r & 3) == 0 ? size + 1 : (r & 3) == 1 ? 3 : 64;
    const std::size_t n = std::min<std::size_t>(1 + (r >> 8) % max, size - pos);
    scanner.feed(text.substr(pos, n));
    if ((r >> 4) % 16 == 0) scanner.feed({});  // an empty read
    pos += n;
  }
  const LogAnalysis chunked = scanner.finish();
  fuzz::require(whole == chunked, "the log scanner's result depends on how the log is cut into chunks");
  // Progress-bar redraws taken by the shortcut must change nothing.
  LogScanner lineByLine(*knowledge().logs, LogScanner::Redraws::LineByLine);
  lineByLine.feed(text);
  fuzz::require(whole == lineByLine.finish(), "the redraw shortcut changes the log's analysis");
  fuzz::require(whole.bytes == size, "the scanner did not count every byte");

  (void)isLogText(text.substr(0, 1 << 16));
  Report report;
  report.files.push_back(logReport("fuzz.log", whole));
  fuzz::checkReport(report);
  fuzz::formatAll(report);
  // The whole report too (it carries every field the scanner fills, the ones added later included).
  Report fromChunks;
  fromChunks.files.push_back(logReport("fuzz.log", chunked));
  fuzz::require(formatJson(report) == formatJson(fromChunks), "the log's report depends on how the log is cut into chunks");

  // Attached to a config (`oomlint check job.yaml --log fuzz.log`): the log's phase orders the plan.
  AnalyzeOptions options;
  options.attachedLog = whole;
  Report withConfig;
  withConfig.files.push_back(analyzeInput(Input{"job.yaml", config()}, options));
  fuzz::checkReport(withConfig);
  (void)formatJson(withConfig);
  return 0;
}
