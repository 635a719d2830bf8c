// oomlint-calibrate: runs the estimator over published VRAM figures expressed as configs
// (../shared/calibration/cases.yaml: AI Toolkit; tests/calibration/*/cases.yaml: sd-scripts, musubi-tuner) and prints, per case and in total, estimate against expectation.
// A report, not a test: it never fails on a miss. `--markdown` prints the table docs/accuracy.md holds.
//
// usage: oomlint-calibrate [CASES.yaml] [--markdown]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "analyze.h"
#include "base/document/reader.h"
#include "common/read_file.h"

namespace fs = std::filesystem;
using namespace oomlint;

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

std::string str(const Node* map, std::string_view key) { return scalarText(map, key); }
double number(const Node* map, std::string_view key, double fallback) { return numberAt(map, key, fallback); }

struct Result {
  std::string id, expect, phase, ladder, trainer, source;
  double gpuGib = 0, peakGib = 0, tolerance = 0, estimateGib = 0, uncertaintyGib = 0;
  bool pass = false;
  bool estimated = false;
  std::string verdict;
  std::string note;
};

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double pos = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const auto hi = static_cast<std::size_t>(std::ceil(pos));
  return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
}

Result run(const Node* item, const fs::path& dir) {
  Result r;
  r.id = str(item, "id");
  r.expect = str(item, "expect");
  r.phase = str(item, "phase");
  r.ladder = str(item, "ladder");
  r.trainer = str(item, "trainer");
  r.source = str(item, "source");
  r.gpuGib = number(item, "gpu_vram_gib", 80);
  r.peakGib = number(item, "peak_gib", 0);
  r.tolerance = number(item, "tolerance", 0.2);
  AnalyzeOptions options;
  options.vramGib = r.gpuGib;
  // A list of files is one job (an sd-scripts / musubi-tuner command line with the TOMLs it names): the
  // first is the one reported.
  std::vector<Input> files;
  if (const Node* config = item->find("config"); config != nullptr && config->isSequence()) {
    for (const Node* f : config->resolved()->items) files.push_back(Input{(dir / f->resolved()->text).string(), readWholeFile(dir / f->resolved()->text)});
  } else {
    const fs::path path = dir / str(item, "config");
    files.push_back(Input{path.string(), readWholeFile(path)});
  }
  if (files.size() > 1) options.job = jobFilesOf(files);
  const FileReport report = analyzeInput(files.front(), options);
  if (!report.estimate) {
    r.note = "no estimate (unknown architecture or unreadable config)";
    return r;
  }
  const Estimate& e = *report.estimate;
  const PhaseEstimate* phase = &e.peak();
  if (!r.phase.empty()) {
    // AI Toolkit quantizes while it loads (its log shows "Quantizing …" inside model load), so a published
    // load figure is the larger of oomlint's load and quantize phases.
    const PhaseEstimate* found = nullptr;
    for (const auto& p : e.phases) {
      const bool match = toString(p.phase) == r.phase || (r.phase == "load" && p.phase == Phase::Quantize);
      if (match && (found == nullptr || p.peakBytes > found->peakBytes)) found = &p;
    }
    if (found == nullptr) {
      r.note = "the config does not run phase " + r.phase;
      return r;
    }
    phase = found;
  }
  r.estimated = true;
  r.estimateGib = phase->peakBytes / kGiB;
  r.uncertaintyGib = phase->aboveBytes() / kGiB;
  r.verdict = std::string(toString(e.verdict));
  if (r.expect == "peak") r.pass = std::fabs(r.estimateGib - r.peakGib) <= r.tolerance * r.peakGib;
  else if (r.expect == "fits") r.pass = r.estimateGib <= r.gpuGib;
  else if (r.expect == "oom") r.pass = r.estimateGib > r.gpuGib;
  else if (r.expect == "borderline") r.pass = std::fabs(r.estimateGib - r.gpuGib) <= 0.10 * r.gpuGib;
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  fs::path cases = fs::path(OOMLINT_SOURCE_DIR) / "../shared/calibration/cases.yaml";
  bool markdown = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--markdown") markdown = true;
    else cases = arg;
  }
  if (!fs::exists(cases)) {
    std::fprintf(stderr, "oomlint-calibrate: %s not found (the shared calibration set sits beside the clone)\n", cases.c_str());
    return 2;
  }
  auto doc = readDocument(readWholeFile(cases));
  if (doc->fatal() || doc->root() == nullptr || !doc->root()->isSequence()) {
    std::fprintf(stderr, "oomlint-calibrate: cannot read %s\n", cases.c_str());
    return 2;
  }
  std::vector<Result> results;
  for (const Node* item : doc->root()->resolved()->items) results.push_back(run(item, cases.parent_path()));

  std::vector<double> peakErrors;
  std::map<std::string, std::pair<int, int>> agreement;  // expect kind → (pass, total)
  for (const auto& r : results) {
    auto& [pass, total] = agreement[r.expect];
    ++total;
    if (r.pass) ++pass;
    if (r.expect == "peak" && r.estimated) peakErrors.push_back(std::fabs(r.estimateGib - r.peakGib) / r.peakGib);
  }
  int classPass = 0, classTotal = 0;
  for (const char* kind : {"fits", "oom", "borderline"}) {
    classPass += agreement[kind].first;
    classTotal += agreement[kind].second;
  }

  if (markdown) {
    std::printf("| case | expect | card GiB | published | estimate | error | result | phase | source (trainer) |\n"
                "|---|---|---|---|---|---|---|---|---|\n");
  } else {
    std::printf("%-46s %-10s %6s %10s %16s %8s  %s\n", "case", "expect", "card", "published", "estimate", "error", "result");
  }
  for (const auto& r : results) {
    char published[32] = "—";
    char error[32] = "";
    if (r.expect == "peak") {
      std::snprintf(published, sizeof published, "%.1f ±%.0f%%", r.peakGib, r.tolerance * 100);
      if (r.estimated) std::snprintf(error, sizeof error, "%+.0f%%", (r.estimateGib - r.peakGib) / r.peakGib * 100);
    }
    char estimate[48] = "—";
    if (r.estimated) std::snprintf(estimate, sizeof estimate, "%.1f ± %.1f", r.estimateGib, r.uncertaintyGib);
    const char* result = r.pass ? "pass" : "MISS";
    if (markdown) {
      std::string source = r.source;
      std::replace(source.begin(), source.end(), '|', '/');  // keep the Markdown table intact
      std::printf("| %s | %s | %.0f | %s | %s | %s | %s | %s | %s (%s) |\n", r.id.c_str(), r.expect.c_str(), r.gpuGib, published,
                  estimate, error, result, r.phase.empty() ? "peak" : r.phase.c_str(), source.c_str(), r.trainer.c_str());
    } else {
      std::printf("%-46s %-10s %6.0f %10s %16s %8s  %s%s%s\n", r.id.c_str(), r.expect.c_str(), r.gpuGib, published, estimate, error,
                  result, r.note.empty() ? "" : "  ", r.note.c_str());
    }
  }
  // Ladders: one setup stepped through settings. Ratios of published peaks are less sensitive to the
  // mapping onto AI Toolkit than absolute values.
  std::map<std::string, std::vector<const Result*>> ladders;
  for (const auto& r : results) {
    if (!r.ladder.empty()) ladders[r.ladder].push_back(&r);
  }
  if (!ladders.empty()) std::printf("\nladders (estimate ratio vs published ratio, for rungs with published peaks):\n");
  for (const auto& [name, rungs] : ladders) {
    std::printf("  %s:", name.c_str());
    for (const Result* r : rungs) std::printf(" %s=%.1f", r->id.c_str(), r->estimateGib);
    std::printf("\n");
    for (std::size_t i = 0; i + 1 < rungs.size(); ++i) {
      const Result& a = *rungs[i];
      const Result& b = *rungs[i + 1];
      if (a.expect == "peak" && b.expect == "peak" && a.estimated && b.estimated && b.peakGib > 0 && b.estimateGib > 0) {
        std::printf("    %s / %s: estimate %.2f, published %.2f\n", a.id.c_str(), b.id.c_str(), a.estimateGib / b.estimateGib,
                    a.peakGib / b.peakGib);
      }
    }
  }
  std::printf("\npeak cases: %zu, median |error| %.1f%%, 90th percentile %.1f%%, within tolerance %d/%d\n", peakErrors.size(),
              percentile(peakErrors, 0.5) * 100, percentile(peakErrors, 0.9) * 100, agreement["peak"].first,
              agreement["peak"].second);
  std::printf("fits/oom/borderline cases agreeing: %d/%d (%.0f%%)  [fits %d/%d, oom %d/%d, borderline %d/%d]\n", classPass,
              classTotal, classTotal ? 100.0 * classPass / classTotal : 0.0, agreement["fits"].first, agreement["fits"].second,
              agreement["oom"].first, agreement["oom"].second, agreement["borderline"].first, agreement["borderline"].second);
  return 0;
}
