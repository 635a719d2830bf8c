// libFuzzer target: the bytes as a ComfyUI workflow (issue #19): as they are (API or UI JSON), inside a
// request body, or inside a PNG's `prompt` text chunk (with a length that is right, or one that lies),
// through reading, the graph walk, the setup, the generation estimate, the plan, every formatter and
// `oomlint fix`. The framing is chosen from the input's hash, so a crash file replays exactly.
// scripts/fuzz.sh comfyui [SECONDS].
// fuzz-seeds: json
#include <cstddef>
#include <cstdint>
#include <string>

#include "analyze.h"
#include "base/knowledge/knowledge.h"
#include "fuzz_support.h"
#include "systems/comfyui/png_text.h"
#include "systems/comfyui/system.h"

using namespace oomlint;

namespace {

std::string pngChunk(const std::string& type, const std::string& data, std::uint32_t length) {
  std::string out;
  for (int shift : {24, 16, 8, 0}) out += static_cast<char>((length >> shift) & 0xFF);
  return out + type + data + std::string(4, '\0');
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  const std::uint64_t h = fuzz::hashOf(bytes);
  std::string text;
  switch (h % 4) {
    case 0: text = bytes; break;                                         // as saved or exported
    case 1: text = "{\"input\": {\"workflow\": " + bytes + "}}"; break;  // a worker's request body
    case 2:                                                              // a PNG SaveImage wrote
      text = std::string(kPngSignature) + pngChunk("tEXt", "prompt" + std::string(1, '\0') + bytes, static_cast<std::uint32_t>(bytes.size() + 7)) +
             pngChunk("IEND", "", 0);
      break;
    default:  // a PNG whose chunk length lies (truncated, or longer than the file)
      text = std::string(kPngSignature) + pngChunk("iTXt", "workflow" + std::string(4, '\0') + bytes, static_cast<std::uint32_t>(h >> 32));
      break;
  }
  static const char* const gpus[] = {"GTX 1050 Ti", "RTX 3060 12GB", "RTX 4090"};
  AnalyzeOptions options;
  options.gpu = gpus[(h >> 8) % 3];

  const Input input{"fuzz/workflow.json", text};
  Report report;
  const SystemContext context{knowledge(), resolveGpu(options), true, nullptr, options.limits, true, std::nullopt};
  report.files.push_back(ComfyUiSystem{}.analyze(input, context));
  fuzz::checkReport(report);
  fuzz::formatAll(report);
  // Through the content detection too, as the CLI and the page see it.
  fuzz::checkReport(analyze({input}, options));
  if (!report.files.front().plan.empty()) fuzz::checkFix(input, options);
  // The PNG reader alone, on the raw bytes: an error or a result, never a read past the end.
  const PngWorkflow png = workflowFromPng(bytes);
  fuzz::require(png.error.empty() != png.json.empty(), "a PNG read with both or neither of a text and an error");
  return 0;
}
