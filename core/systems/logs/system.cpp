#include "systems/logs/system.h"

#include "base/document/reader.h"
#include "policy/suppressions.h"
#include "systems/logs/diagnose.h"
#include "systems/logs/log_analysis.h"

namespace oomlint {

Recognition LogSystem::recognise(std::string_view head) const {
  // A JSON document is a config, except the system report A1111 and Forge ask for with a bug (modules/sysinfo.py), whose
  // "Exceptions" list holds the errors the UI caught, messages and tracebacks as strings (unseen-5 028).
  if (looksLikeJson(head)) return head.find("\"Exceptions\": [") != std::string_view::npos ? Recognition::Likely : Recognition::No;
  return looksLikeLog(head) ? Recognition::Likely : Recognition::No;
}

FileReport LogSystem::analyze(const Input& input, const SystemContext&) const {
  FileReport file = logReport(input.path, analyzeLog(input.text));
  file.source = std::make_shared<const SourceText>(input.text);
  return file;
}

FileReport logReport(std::string path, const LogAnalysis& log, const Policy& policy) {
  FileReport file;
  file.path = std::move(path);
  file.kind = InputKind::Log;
  file.log = log;
  Findings findings;
  diagnoseLog(log, nullptr, findings);
  file.diagnostics = std::move(findings.all());
  applyPolicy(file.diagnostics, policy);
  return file;
}

}  // namespace oomlint
