// libFuzzer target: the CLI's option parsing (native/cli/options.cpp), which is a pure function of the
// argument list. The bytes are split on NUL or newline into argv[1..]; the result must be either a
// command or a usage error, and a command must satisfy what the parser promises main(). The GPU it
// names then goes through the core's GPU resolution, as `oomlint check` does before reading anything.
// scripts/fuzz.sh cli_options [SECONDS].
// fuzz-sources: native/cli/options.cpp
// fuzz-seeds:
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "analyze.h"
#include "cli/options.h"
#include "fuzz_support.h"
#include "base/knowledge/knowledge.h"

using namespace oomlint;

namespace {

template <typename Command>
void checkGpu(const Command& command) {
  if (command.gpu) fuzz::require(!command.gpu->empty(), "an empty --gpu was accepted");
  if (command.vramGib) fuzz::require(*command.vramGib > 0, "a --vram that is not positive was accepted");
  if (command.ramGib) fuzz::require(*command.ramGib > 0, "a --ram that is not positive was accepted");
  AnalyzeOptions options;
  options.gpu = command.gpu;
  options.vramGib = command.vramGib;
  std::string error;
  const auto gpu = resolveGpu(options, &error);
  fuzz::require(gpu.has_value() == error.empty(), "resolveGpu gave neither a GPU nor an error, or both");
  if (gpu && command.vramGib) {
    fuzz::require(gpu->vramBytes == static_cast<std::uint64_t>(*command.vramGib * 1024.0 * 1024.0 * 1024.0),
                  "the card's memory is not the --vram given");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> args;
  if (size > 0) {
    std::size_t start = 0;
    for (std::size_t i = 0; i <= size; ++i) {
      if (i == size || bytes[i] == '\0' || bytes[i] == '\n') {
        args.emplace_back(bytes.substr(start, i - start));
        start = i + 1;
      }
    }
  }
  const cli::ParseResult parsed = cli::parseArguments(args);
  fuzz::require(parsed.command.has_value() == parsed.error.empty(), "neither a command nor a usage error, or both");
  if (!parsed.command) return 0;
  if (const auto* check = std::get_if<cli::CheckCommand>(&*parsed.command)) {
    fuzz::require(!check->inputs.empty(), "check without an input was accepted");
    fuzz::require(!(check->config && check->noConfig), "both --config and --no-config were accepted");
    if (check->log) fuzz::require(!check->log->empty(), "an empty --log was accepted");
    checkGpu(*check);
  } else if (const auto* fix = std::get_if<cli::FixCommand>(&*parsed.command)) {
    fuzz::require(!fix->input.empty(), "fix without a file was accepted");
    fuzz::require(!(fix->output && fix->inPlace), "both -o and --in-place were accepted");
    fuzz::require(!(fix->inPlace && fix->input == "-"), "--in-place on stdin was accepted");
    checkGpu(*fix);
  } else if (const auto* explain = std::get_if<cli::ExplainCommand>(&*parsed.command)) {
    (void)knowledge().catalog.find(explain->code);
  }
  return 0;
}
