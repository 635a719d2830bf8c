#include "harness_options.h"

#include <charconv>
#include <cmath>
#include <string_view>

namespace oomlint::harness {

namespace {

constexpr std::string_view kCalibrationWithFile = "--calibration=";

std::optional<double> positiveNumber(const std::string& text) {
  double value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || !std::isfinite(value) || value <= 0) return std::nullopt;
  return value;
}

std::optional<int> count(const std::string& text) {
  int value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || value < 0) return std::nullopt;
  return value;
}

}  // namespace

const char* harnessUsage() {
  return "usage: oomlint-harness [--gpu NAME | --vram GIB] [--cap-gib N|card] [--json OUT]\n"
         "                       [--calibration [CASES]] [--forward-blocks N] [--device N] [--plan-only] [CONFIG...]\n"
         "Replays each config's VRAM estimate on the GPU and prints estimate vs measured per component and phase.\n"
         "  --gpu NAME, --vram GIB  the card the estimate is made against (default: the core's default card;\n"
         "                          calibration cases: each case's gpu_vram_gib)\n"
         "  --cap-gib N|card        hold back memory so that N GiB (or the estimate's card size) remain, and check\n"
         "                          that what the estimate calls oom fails to allocate and what it calls fits runs\n"
         "  --json OUT              also write the results as JSON\n"
         "  --calibration [CASES]   the calibration cases (default ../shared/calibration/cases.yaml beside the\n"
         "                          source tree); the next argument is CASES unless it starts with '-'\n"
         "  --forward-blocks N      run the kernels of the first N blocks only (the rest allocate the same\n"
         "                          tensors without computing): the same memory in less GPU time\n"
         "  --device N              CUDA device ordinal (default 0)\n"
         "  --plan-only             print the replay plans and stop (no GPU needed)\n"
         "exit: 0 done, 1 a capped phase disagreed with the estimate's verdict, 2 bad input, 3 CUDA error or no GPU\n";
}

std::optional<HarnessOptions> parseHarnessOptions(const std::vector<std::string>& args, std::string* error) {
  HarnessOptions o;
  auto fail = [&](std::string message) -> std::optional<HarnessOptions> {
    if (error) *error = std::move(message);
    return std::nullopt;
  };
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    auto value = [&]() -> std::optional<std::string> {
      if (i + 1 >= args.size()) return std::nullopt;
      return args[++i];
    };
    if (arg == "-h" || arg == "--help") {
      o.help = true;
    } else if (arg == "--gpu") {
      auto v = value();
      if (!v) return fail("--gpu needs a card name");
      o.gpu = *v;
    } else if (arg == "--vram") {
      auto v = value();
      auto gib = v ? positiveNumber(*v) : std::nullopt;
      if (!gib) return fail("--vram needs a positive number of GiB");
      o.vramGib = gib;
    } else if (arg == "--cap-gib") {
      auto v = value();
      if (v && *v == "card") {
        o.capAtCard = true;
      } else {
        auto gib = v ? positiveNumber(*v) : std::nullopt;
        if (!gib) return fail("--cap-gib needs a positive number of GiB or 'card'");
        o.capGib = gib;
      }
    } else if (arg == "--json") {
      auto v = value();
      if (!v || v->empty()) return fail("--json needs a file name");
      o.jsonPath = *v;
    } else if (arg.starts_with(kCalibrationWithFile)) {
      o.calibration = true;
      o.calibrationCases = arg.substr(kCalibrationWithFile.size());
    } else if (arg == "--calibration") {
      o.calibration = true;
      // The cases file is optional: the next argument is it unless it is an option.
      if (i + 1 < args.size() && !args[i + 1].starts_with("-")) o.calibrationCases = args[++i];
    } else if (arg == "--forward-blocks") {
      auto v = value();
      auto n = v ? count(*v) : std::nullopt;
      if (!n) return fail("--forward-blocks needs a whole number");
      o.forwardBlocks = *n;
    } else if (arg == "--device") {
      auto v = value();
      auto n = v ? count(*v) : std::nullopt;
      if (!n) return fail("--device needs a device ordinal");
      o.device = *n;
    } else if (arg == "--plan-only") {
      o.planOnly = true;
    } else if (arg.starts_with("-") && arg != "-") {
      return fail("unknown option " + arg);
    } else {
      o.configs.push_back(arg);
    }
  }
  if (o.gpu && o.vramGib) return fail("give --gpu or --vram, not both");
  if (!o.help && o.configs.empty() && !o.calibration) return fail("nothing to replay: give a CONFIG or --calibration");
  return o;
}

}  // namespace oomlint::harness
