// oomlint-harness's command line, parsed without touching a GPU (unit-tested).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace oomlint::harness {

struct HarnessOptions {
  std::optional<std::string> gpu;  // --gpu NAME: the card the estimate is made against
  std::optional<double> vramGib;   // --vram GIB
  std::optional<double> capGib;    // --cap-gib N: hold back memory so that N GiB remain
  bool capAtCard = false;          // --cap-gib card: each estimate's own card size
  std::string jsonPath;            // --json OUT
  bool calibration = false;        // --calibration [CASES]
  std::string calibrationCases;    // empty: the shared set beside the clone
  std::vector<std::string> configs;
  int forwardBlocks = -1;  // --forward-blocks N: blocks whose kernels run (-1: all); the others only allocate
  bool planOnly = false;   // --plan-only: print the plans, no GPU needed
  int device = 0;          // --device N
  bool help = false;
};

// nullopt with a message in `error` for a malformed command line.
std::optional<HarnessOptions> parseHarnessOptions(const std::vector<std::string>& args, std::string* error);

const char* harnessUsage();

}  // namespace oomlint::harness
