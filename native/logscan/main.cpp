// oomlint-logscan: the log analysis against the labelled log corpus (../shared/corpus/logs/manifest.yaml):
// per-file results and totals (oom precision/recall, kind and phase accuracy, exact numbers). A report.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "document/reader.h"
#include "logs/log_analysis.h"

namespace fs = std::filesystem;
using namespace oomlint;

namespace {
std::string readFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}
std::string str(const Node* m, std::string_view k) {
  const Node* v = m ? m->find(k) : nullptr;
  return v && v->isScalar() && !v->isNull() ? v->resolved()->text : std::string();
}
}  // namespace

int main(int argc, char** argv) {
  fs::path manifest = argc > 1 ? fs::path(argv[1]) : fs::path(OOMLINT_SOURCE_DIR) / "../shared/corpus/logs/manifest.yaml";
  auto doc = readDocument(readFile(manifest));
  if (doc->fatal() || !doc->root() || !doc->root()->isSequence()) {
    std::fprintf(stderr, "oomlint-logscan: cannot read %s\n", manifest.c_str());
    return 2;
  }
  int total = 0, tp = 0, fp = 0, fn = 0, kindOk = 0, phaseOk = 0, numbersOk = 0, stepOk = 0, suspectOk = 0;
  for (const Node* item : doc->root()->resolved()->items) {
    const std::string file = str(item, "file");
    const LogAnalysis a = analyzeLog(readFile(manifest.parent_path() / file));
    const bool oom = item->find("oom") && item->find("oom")->truthy();
    const std::string kind = str(item, "kind"), phase = str(item, "phase");
    const Node* stepNode = item->find("step");
    const std::string step = stepNode && !stepNode->isNull() ? stepNode->resolved()->text : "null";
    const bool suspect = item->find("gpu_state_suspect") && item->find("gpu_state_suspect")->truthy();
    ++total;
    if (oom && a.oom) ++tp;
    if (!oom && a.oom) ++fp;
    if (oom && !a.oom) ++fn;
    const bool k = kind == toString(a.kind);
    const bool p = phase == a.phase;
    const std::string gotStep = a.step ? std::to_string(*a.step) : "null";
    const bool s = step == gotStep;
    const bool g = suspect == a.gpuStateSuspect;
    bool numbers = true;
    std::string numberMiss;
    const Node* expected = item->find("numbers");
    auto check = [&](const char* key, const std::optional<std::int64_t>& got) {
      const Node* e = expected ? expected->find(key) : nullptr;
      const bool want = e && e->isNumber();
      if (want != got.has_value() || (want && static_cast<std::int64_t>(e->number()) != *got)) {
        numbers = false;
        numberMiss += std::string(" ") + key + "=" + (got ? std::to_string(*got) : "-") + "/" + (want ? e->resolved()->text : "-");
      }
    };
    check("tried_to_allocate", a.numbers.triedToAllocate);
    check("total_capacity", a.numbers.totalCapacity);
    check("free", a.numbers.free);
    check("allocated_by_pytorch", a.numbers.allocatedByPytorch);
    check("reserved_unallocated", a.numbers.reservedUnallocated);
    check("process_in_use", a.numbers.processInUse);
    kindOk += k;
    phaseOk += p;
    numbersOk += numbers;
    stepOk += s;
    suspectOk += g;
    const bool all = (oom == a.oom) && k && p && numbers && s && g;
    std::printf("%-44s %s oom %d/%d kind %s/%s phase %s/%s step %s/%s suspect %d/%d%s\n", file.c_str(), all ? "ok  " : "MISS", a.oom,
                oom, std::string(toString(a.kind)).c_str(), kind.c_str(), a.phase.c_str(), phase.c_str(), gotStep.c_str(),
                step.c_str(), a.gpuStateSuspect, suspect, numberMiss.c_str());
  }
  std::printf("\n%d logs: oom precision %.0f%% recall %.0f%%; kind %d/%d; phase %d/%d; step %d/%d; gpu-state %d/%d; numbers exact %d/%d\n",
              total, tp + fp ? 100.0 * tp / (tp + fp) : 100.0, tp + fn ? 100.0 * tp / (tp + fn) : 100.0, kindOk, total, phaseOk, total,
              stepOk, total, suspectOk, total, numbersOk, total);
  return 0;
}
