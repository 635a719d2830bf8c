// oomlint-bench: how long the core takes on each input, in-process (no process start, no file reading):
// analyze() alone, and analyze() followed by the JSON renderer (what the WebAssembly module returns to
// the page on each keystroke). Each input is analysed repeatedly — a few warm-up runs, then as many as
// fit in the time given (at least --min-runs) — and the median and 90th percentile are printed.
//
// Usage: oomlint-bench [--time-ms MS] [--min-runs N] [--vram GIB | --gpu NAME] FILE...
// Output: the time of the process's first analysis (a `#` line), then one tab-separated line per file (a
// header first): file, bytes, lines, runs, and the median and p90 of both measurements in microseconds. scripts/bench.sh turns it into the table of docs/performance.md.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "analyze.h"
#include "format/formatters.h"
#include "common/read_file.h"

using namespace oomlint;
using Clock = std::chrono::steady_clock;

namespace {

double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  if (v.empty()) return 0;
  const std::size_t i = std::min(v.size() - 1, static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5));
  return v[i];
}

// Microseconds per call of `work`, one sample per call.
template <typename Work>
std::vector<double> sample(Work work, double budgetMs, int minRuns) {
  for (int i = 0; i < 3; ++i) work();  // warm-up: the knowledge is loaded, caches are hot
  std::vector<double> us;
  const auto start = Clock::now();
  while (static_cast<int>(us.size()) < minRuns ||
         std::chrono::duration<double, std::milli>(Clock::now() - start).count() < budgetMs) {
    const auto t0 = Clock::now();
    work();
    us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
    if (us.size() >= 100000) break;
  }
  return us;
}

}  // namespace

int main(int argc, char** argv) {
  double budgetMs = 300;
  int minRuns = 20;
  AnalyzeOptions options;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--time-ms" && i + 1 < argc) budgetMs = std::atof(argv[++i]);
    else if (arg == "--min-runs" && i + 1 < argc) minRuns = std::atoi(argv[++i]);
    else if (arg == "--vram" && i + 1 < argc) options.vramGib = std::atof(argv[++i]);
    else if (arg == "--gpu" && i + 1 < argc) options.gpu = argv[++i];
    else if (!arg.empty() && arg[0] == '-') {
      std::fprintf(stderr, "usage: oomlint-bench [--time-ms MS] [--min-runs N] [--vram GIB | --gpu NAME] FILE...\n");
      return 2;
    } else files.push_back(arg);
  }
  if (files.empty()) {
    std::fprintf(stderr, "oomlint-bench: no input files\n");
    return 2;
  }
  // The first analysis of the process reads the compiled knowledge (rules, schema, GPUs) from its
  // tables: every `oomlint` run pays it once.
  const auto first = Clock::now();
  (void)analyze({Input{"first.yaml", "job: extension\n"}}, options);
  std::printf("# first analysis (reads the compiled knowledge): %.3f ms\n",
              std::chrono::duration<double, std::milli>(Clock::now() - first).count());
  std::printf("file\tbytes\tlines\truns\tanalyze_median_us\tanalyze_p90_us\tjson_median_us\tjson_p90_us\n");
  for (const auto& path : files) {
    const Input input{path, readWholeFile(path)};
    const auto lines = std::count(input.text.begin(), input.text.end(), '\n');
    std::size_t sink = 0;  // keeps the work observable
    const auto analyzeOnly = sample([&] { sink += analyze({input}, options).files.size(); }, budgetMs, minRuns);
    const auto withJson = sample([&] { sink += formatJson(analyze({input}, options)).size(); }, budgetMs, minRuns);
    std::printf("%s\t%zu\t%ld\t%zu\t%.1f\t%.1f\t%.1f\t%.1f\n", path.c_str(), input.text.size(), static_cast<long>(lines),
                analyzeOnly.size(), quantile(analyzeOnly, 0.5), quantile(analyzeOnly, 0.9), quantile(withJson, 0.5),
                quantile(withJson, 0.9));
    if (sink == 0) std::fprintf(stderr, "oomlint-bench: %s gave no report\n", path.c_str());
  }
  return 0;
}
