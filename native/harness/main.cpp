// oomlint-harness: replays configs' VRAM estimates on a GPU and prints estimate vs measured per
// component and phase (docs/harness.md). A measurement tool, not a test: CI builds it, never runs it.
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "calibration_cases.h"
#include "device_session.h"
#include "harness_options.h"
#include "base/knowledge/knowledge.h"
#include "plan_builder.h"
#include "report.h"

namespace fs = std::filesystem;
using namespace oomlint;
using namespace oomlint::harness;

namespace {

constexpr int kExitDisagreement = 1;
constexpr int kExitBadInput = 2;
constexpr int kExitDevice = 3;
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

std::optional<std::string> readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// One config to replay and the card its estimate is made against.
struct Job {
  std::string id;
  std::string path;
  AnalyzeOptions analyze;
};

std::optional<std::vector<Job>> collectJobs(const HarnessOptions& o, std::string& error) {
  std::vector<Job> jobs;
  AnalyzeOptions chosen;
  chosen.gpu = o.gpu;
  chosen.vramGib = o.vramGib;
  for (const auto& config : o.configs) jobs.push_back({config, config, chosen});
  if (o.calibration) {
    const fs::path cases = o.calibrationCases.empty() ? fs::path(OOMLINT_SOURCE_DIR) / "../shared/calibration/cases.yaml"
                                                      : fs::path(o.calibrationCases);
    const auto text = readFile(cases);
    if (!text) {
      error = cases.string() + " cannot be read (the shared calibration set sits beside the clone)";
      return std::nullopt;
    }
    for (const auto& c : readCalibrationCases(*text, cases.parent_path().string(), &error)) {
      AnalyzeOptions options = chosen;
      if (!o.gpu && !o.vramGib) options.vramGib = c.gpuGib;  // the card the published claim is about
      jobs.push_back({c.id, c.config, options});
    }
    if (!error.empty()) {
      error = cases.string() + ": " + error;
      return std::nullopt;
    }
  }
  return jobs;
}

std::optional<CaseResult> planCase(const Job& job, const HarnessOptions& o, std::string& error) {
  CaseResult result;
  result.id = job.id;
  const auto text = readFile(job.path);
  if (!text) {
    error = job.path + " cannot be read";
    return std::nullopt;
  }
  std::string why;
  result.plan = buildReplayPlan(analyzeForReplay(Input{job.path, *text}, job.analyze), knowledge().memory, &why);
  if (!result.plan) {
    result.skipped = why;
    return result;
  }
  if (o.capAtCard)
    result.cap = capPlan(*result.plan, static_cast<double>(result.plan->gpuBytes) / kGiB);
  else if (o.capGib)
    result.cap = capPlan(*result.plan, *o.capGib);
  return result;
}

bool writeJson(const std::string& path, const DeviceFacts* facts, const std::vector<CaseResult>& results) {
  if (path.empty()) return true;
  std::ofstream out(path, std::ios::binary);
  out << resultsJson(facts, results);
  if (!out) {
    std::fprintf(stderr, "oomlint-harness: cannot write %s\n", path.c_str());
    return false;
  }
  return true;
}

void replayCase(DeviceSession& session, const HarnessOptions& o, CaseResult& result) {
  if (result.cap) session.capTo(result.cap->capBytes);
  for (const auto& phase : result.plan->phases) result.phases.push_back(session.replay(phase, o.forwardBlocks));
  session.capTo(0);
  if (result.cap) result.capOutcomes = compareWithCap(*result.cap, result.phases);
}

int run(const HarnessOptions& o) {
  std::string error;
  if (o.gpu || o.vramGib) {
    AnalyzeOptions target;
    target.gpu = o.gpu;
    target.vramGib = o.vramGib;
    if (!resolveGpu(target, &error)) {
      std::fprintf(stderr, "oomlint-harness: %s\n", error.c_str());
      return kExitBadInput;
    }
  }
  const auto jobs = collectJobs(o, error);
  if (!jobs) {
    std::fprintf(stderr, "oomlint-harness: %s\n", error.c_str());
    return kExitBadInput;
  }
  std::vector<CaseResult> results;
  for (const auto& job : *jobs) {
    auto result = planCase(job, o, error);
    if (!result) {
      std::fprintf(stderr, "oomlint-harness: %s\n", error.c_str());
      return kExitBadInput;
    }
    results.push_back(std::move(*result));
  }

  if (o.planOnly) {
    for (const auto& r : results) {
      if (!r.plan) {
        std::printf("== %s: skipped (%s)\n", r.id.c_str(), r.skipped.c_str());
        continue;
      }
      printPlan(stdout, *r.plan);
      if (r.cap) printCapPlan(stdout, *r.cap);
    }
    return writeJson(o.jsonPath, nullptr, results) ? 0 : kExitBadInput;
  }

  std::optional<DeviceSession> session;
  try {
    session.emplace(o.device);
  } catch (const DeviceError& e) {
    std::fprintf(stderr, "oomlint-harness: %s\n", e.what());
    return kExitDevice;
  }
  printDeviceFacts(stdout, session->facts());
  int status = 0;
  for (auto& r : results) {
    if (r.plan) {
      try {
        replayCase(*session, o, r);
      } catch (const DeviceError& e) {
        // A CUDA failure other than out-of-memory may leave the context unusable: stop, keep what was measured.
        r.skipped = e.what();
        printCase(stdout, r);
        std::fprintf(stderr, "oomlint-harness: %s: %s\n", r.id.c_str(), e.what());
        writeJson(o.jsonPath, &session->facts(), results);
        return kExitDevice;
      }
    }
    printCase(stdout, r);
    std::fflush(stdout);
    for (const auto& outcome : r.capOutcomes) {
      if (!outcome.agrees) status = kExitDisagreement;
    }
  }
  if (results.size() > 1) printSummary(stdout, results);
  if (!writeJson(o.jsonPath, &session->facts(), results)) return kExitBadInput;
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  std::string error;
  const auto options = parseHarnessOptions(std::vector<std::string>(argv + 1, argv + argc), &error);
  if (!options) {
    std::fprintf(stderr, "oomlint-harness: %s\n%s", error.c_str(), harnessUsage());
    return kExitBadInput;
  }
  if (options->help) {
    std::fputs(harnessUsage(), stdout);
    return 0;
  }
  try {
    return run(*options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "oomlint-harness: %s\n", e.what());
    return kExitDevice;
  }
}
