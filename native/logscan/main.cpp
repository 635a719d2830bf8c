// oomlint-logscan: the log analysis against the labelled log corpus (../shared/corpus/logs/manifest.yaml):
// per-file results and totals (oom precision/recall, kind and phase accuracy, exact numbers), then how
// certain the OOMs found were against `oom: true | suspected` labels. A report.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/document/reader.h"
#include "systems/logs/labels.h"
#include "systems/logs/log_analysis.h"
#include "common/read_file.h"

namespace fs = std::filesystem;
using namespace oomlint;

namespace {
std::string str(const Node* m, std::string_view k) { return scalarText(m, k); }
}  // namespace

int main(int argc, char** argv) {
  fs::path manifest = argc > 1 ? fs::path(argv[1]) : fs::path(OOMLINT_SOURCE_DIR) / "../shared/corpus/logs/manifest.yaml";
  auto doc = readDocument(readWholeFile(manifest));
  if (doc->fatal() || !doc->root() || !doc->root()->isSequence()) {
    std::fprintf(stderr, "oomlint-logscan: cannot read %s\n", manifest.c_str());
    return 2;
  }
  int total = 0, tp = 0, fp = 0, fn = 0, kindOk = 0, phaseOk = 0, numbersOk = 0, stepOk = 0, suspectOk = 0, toolOk = 0;
  // Certainty, both ways: `suspected` labels reported suspected / certain / not found; `true` labels
  // reported certain / only suspected / not found.
  int certaintyOk = 0, suspectedLabels = 0, suspectedAsSuspected = 0, suspectedAsCertain = 0, trueLabels = 0, trueAsCertain = 0,
      trueAsSuspected = 0;
  for (const Node* item : doc->root()->resolved()->items) {
    const std::string file = str(item, "file");
    const LogAnalysis a = analyzeLog(readWholeFile(manifest.parent_path() / file));
    const LabelComparison c = compareWithLabel(a, item);
    ++total;
    const bool found = a.oom || a.suspected;  // precision and recall count an OOM found, certain or suspected
    tp += c.oomLabel && found;
    fp += !c.oomLabel && found;
    fn += c.oomLabel && !found;
    kindOk += c.kind;
    phaseOk += c.phase;
    stepOk += c.step;
    suspectOk += c.gpuState;
    numbersOk += c.numbers;
    toolOk += c.tool;
    certaintyOk += c.certainty;
    if (c.suspectedLabel) {
      ++suspectedLabels;
      suspectedAsSuspected += a.suspected;
      suspectedAsCertain += a.oom;
    } else if (c.oomLabel) {
      ++trueLabels;
      trueAsCertain += a.oom;
      trueAsSuspected += a.suspected;
    }
    if (!c.labelError.empty()) {
      std::fprintf(stderr, "oomlint-logscan: %s: %s\n", file.c_str(), c.labelError.c_str());
      return 2;
    }
    std::printf("%-48s %s%s\n", file.c_str(), c.all() ? "ok" : "MISS (got/expected):", c.differences.c_str());
  }
  std::printf("\n%d logs: oom precision %.0f%% recall %.0f%%; kind %d/%d; phase %d/%d; step %d/%d; gpu-state %d/%d; numbers exact %d/%d; UI named %d/%d\n",
              total, tp + fp ? 100.0 * tp / (tp + fp) : 100.0, tp + fn ? 100.0 * tp / (tp + fn) : 100.0, kindOk, total, phaseOk, total,
              stepOk, total, suspectOk, total, numbersOk, total, toolOk, total);
  std::printf("certainty %d/%d: of %d `oom: suspected` labels, %d reported suspected, %d certain, %d not found; "
              "of %d `oom: true` labels, %d reported certain, %d only suspected, %d not found\n",
              certaintyOk, total, suspectedLabels, suspectedAsSuspected, suspectedAsCertain,
              suspectedLabels - suspectedAsSuspected - suspectedAsCertain, trueLabels, trueAsCertain, trueAsSuspected,
              trueLabels - trueAsCertain - trueAsSuspected);
  return 0;
}
