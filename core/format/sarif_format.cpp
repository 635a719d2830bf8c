// `--format sarif`: SARIF 2.1.0 for code scanning (GitHub), IDE viewers and SARIF tooling. One run; the
// rules that fired with their help pages; each result at its exact region with the key path as a
// logical location; fixes only where the text to replace is known exactly; the estimates in the
// run's property bag. Traps seen in other linters' SARIF are avoided on purpose: stdout holds the one
// document, a clean run still has `results: []`, regions never hold 0, relative URIs carry %SRCROOT%.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "format/formatters.h"
#include "format/summary.h"
#include "base/knowledge/embedded.h"
#include "base/knowledge/knowledge.h"

namespace oomlint {

namespace {

using Json = nlohmann::ordered_json;

constexpr std::string_view kProjectUri = "https://github.com/oomlint/oomlint";
// Every rule's page is docs/rules/<CODE>.md in the repository; SARIF wants an absolute helpUri.
constexpr std::string_view kRuleDocsBase = "https://github.com/oomlint/oomlint/blob/main/docs/rules/";
// Relative paths resolve against the checkout's root, which only the consumer knows (GitHub's upload
// action maps %SRCROOT% to the repository).
constexpr std::string_view kSourceRoot = "%SRCROOT%";

const char* level(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    default: return "note";
  }
}

// ---- URIs --------------------------------------------------------------------------------------

// Percent-encodes everything but RFC 3986's unreserved characters, sub-delimiters, '@' and '/'. ':' is
// encoded too: in a relative reference "a:b.yaml" would otherwise read as the scheme "a".
std::string percentEncode(std::string_view path) {
  static constexpr std::string_view kKeep = "-._~!$&'()*+,;=@/";
  std::string out;
  for (unsigned char c : path) {
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || kKeep.find(static_cast<char>(c)) != std::string_view::npos) {
      out += static_cast<char>(c);
    } else {
      char hex[4];
      std::snprintf(hex, sizeof hex, "%%%02X", c);
      out += hex;
    }
  }
  return out;
}

Json artifactLocation(const std::string& path) {
  if (path == "-" || path == "<stdin>") return {{"uri", "stdin"}};  // no file to resolve against a root
  if (path.starts_with('/')) return {{"uri", "file://" + percentEncode(path)}};
  // A Windows drive path ("C:\configs\a.yaml"), as the browser build may be handed.
  if (path.size() > 2 && std::isalpha(static_cast<unsigned char>(path[0])) && path[1] == ':' && (path[2] == '\\' || path[2] == '/')) {
    std::string slashed = path;
    std::replace(slashed.begin(), slashed.end(), '\\', '/');
    return {{"uri", "file:///" + slashed.substr(0, 2) + percentEncode(slashed.substr(2))}};
  }
  std::string_view relative = path;
  while (relative.starts_with("./")) relative.remove_prefix(2);
  return {{"uri", percentEncode(relative)}, {"uriBaseId", kSourceRoot}};
}

const char* mimeType(const FileReport& file) {
  if (file.kind == InputKind::Log) return "text/plain";
  if (file.path.ends_with(".json")) return "application/json";
  if (file.path.ends_with(".yaml") || file.path.ends_with(".yml")) return "application/yaml";
  if (file.path.ends_with(".png")) return "image/png";  // a ComfyUI PNG: its regions are in the workflow chunk's JSON
  if (file.path.ends_with(".toml")) return "application/toml";
  return nullptr;
}

// ---- Rules -------------------------------------------------------------------------------------

// What part of oomlint's analysis a rule belongs to, from its code's hundreds (catalog.yaml's ranges).
const char* ruleFamily(std::string_view code) {
  if (code.size() < 3) return "other";
  switch (code[2]) {
    case '1': return "input";
    case '2': return "schema";
    case '3': return "startup-error";
    case '4': return "silent-trap";
    case '5': return "memory-estimate";
    case '6': return "crash-log";
    case '7': return "generation-input";
    case '8': return "trainer-command-line";
    case '9': return "comfyui-workflow";
    default: return "other";
  }
}

Json ruleDescriptor(const std::string& code) {
  const RuleInfo* rule = knowledge().catalog.find(code);
  const std::string helpUri = std::string(kRuleDocsBase) + code + ".md";
  if (rule == nullptr) {
    // A code the catalog lacks (a build defect): still a descriptor, so the result's ruleIndex holds.
    return {{"id", code}, {"shortDescription", {{"text", code}}}, {"helpUri", helpUri}};
  }
  const std::string_view embedded = rulePage(rule->code);
  const std::string page = !embedded.empty() ? std::string(embedded)
                                             : "# " + rule->code + " " + rule->name + "\n\n" + rule->title + "\n\n" + rule->summary + "\n";
  return {{"id", rule->code},
          {"name", rule->name},
          {"shortDescription", {{"text", rule->title}}},
          {"fullDescription", {{"text", rule->summary}}},
          {"help", {{"text", page}, {"markdown", page}}},
          {"helpUri", helpUri},
          {"defaultConfiguration", {{"level", level(rule->severity)}}},
          {"properties", {{"tags", Json::array({"oomlint", ruleFamily(rule->code)})}}}};
}

// The rules the results use, in catalog order (stable across runs), then any the catalog lacks.
std::vector<std::string> firedRules(const Report& report) {
  std::vector<std::string> fired;
  for (const auto& file : report.files) {
    for (const auto& d : file.diagnostics) {
      const std::string code(toString(d.code));
      if (std::find(fired.begin(), fired.end(), code) == fired.end()) fired.push_back(code);
    }
  }
  std::vector<std::string> ordered;
  for (const auto& rule : knowledge().catalog.rules()) {
    if (std::find(fired.begin(), fired.end(), rule.code) != fired.end()) ordered.push_back(rule.code);
  }
  for (const auto& code : fired) {
    if (std::find(ordered.begin(), ordered.end(), code) == ordered.end()) ordered.push_back(code);
  }
  return ordered;
}

// ---- Regions -----------------------------------------------------------------------------------

// SARIF lines and columns start at 1 and the end column is exclusive, as ours; clamp anything else so
// a defect upstream cannot make the whole log invalid, and never let a region end before it starts.
Json region(const Range& r) {
  const int startLine = std::max(1, r.start.line);
  const int startColumn = std::max(1, r.start.column);
  const int endLine = std::max(startLine, r.end.line);
  int endColumn = std::max(1, r.end.column);
  if (endLine == startLine) endColumn = std::max(endColumn, startColumn);
  return {{"startLine", startLine}, {"startColumn", startColumn}, {"endLine", endLine}, {"endColumn", endColumn}};
}

// ---- Fixes -------------------------------------------------------------------------------------

Json parseJson(std::string_view text) { return Json::parse(text, nullptr, /*allow_exceptions=*/false); }

// A SARIF fix: a description and the edits the analysis attached (SARIF's fixes are alternatives,
// each complete, so only a fix whose edits write the whole change is offered).
struct SarifFix {
  const Fix& fix;
  std::string description;
};

// Estimate findings take their fix from the rollback plan. OL503 is one step. OL501/OL502 get one only
// when a single step is needed: the first of several needed changes would not be a fix.
// OL504/OL505 the same from the host-RAM plan.
std::optional<SarifFix> planFix(const FileReport& file, const Diagnostic& d) {
  const bool host = d.code == RuleId::OL504 || d.code == RuleId::OL505;
  if (d.code != RuleId::OL501 && d.code != RuleId::OL502 && d.code != RuleId::OL503 && !host) return std::nullopt;
  const std::vector<PlanStep>& plan = host ? file.hostPlan : file.plan;
  const PlanStep* step = nullptr;
  if (d.code == RuleId::OL503) {
    auto it = std::find_if(plan.begin(), plan.end(), [&](const PlanStep& s) { return s.fix.path == d.path; });
    if (it != plan.end()) step = &*it;
  } else {
    const auto needed = std::count_if(plan.begin(), plan.end(), [](const PlanStep& s) { return s.needed; });
    // The last step fits exactly when the whole plan does: otherwise "needed" marks every step.
    const bool planFits = !plan.empty() && plan.back().fitsAfter;
    if (needed == 1 && planFits) {
      step = &*std::find_if(plan.begin(), plan.end(), [](const PlanStep& s) { return s.needed; });
    }
  }
  if (step == nullptr || step->fix.edits.empty() || step->fix.path != d.path) return std::nullopt;
  std::string description = "Set " + step->fix.path.toString() + " from " + step->fix.fromJson + " to " + step->fix.toJson +
                            " (saves about " + formatGiB(step->savesBytes) + ")";
  if (d.code != RuleId::OL503) {
    description += host ? ": the only change the host-RAM plan needs for the job to fit the machine's RAM"
                        : ": the only change the rollback plan needs for the job to fit";
  }
  return SarifFix{step->fix, std::move(description)};
}

std::optional<SarifFix> sarifFix(const FileReport& file, const Diagnostic& d) {
  if (auto fromPlan = planFix(file, d)) return fromPlan;
  if (!d.fix || d.fix->edits.empty()) return std::nullopt;
  return SarifFix{*d.fix, "Set " + d.fix->path.toString() + " to " + d.fix->toJson};
}

Json fixJson(const SarifFix& sarif, const Json& location) {
  Json replacements = Json::array();
  for (const auto& edit : sarif.fix.edits) {
    replacements.push_back({{"deletedRegion", region(edit.range)}, {"insertedContent", {{"text", edit.text}}}});
  }
  return {{"description", {{"text", sarif.description}}},
          {"artifactChanges", Json::array({{{"artifactLocation", location}, {"replacements", replacements}}})}};
}

// ---- Fingerprints ------------------------------------------------------------------------------

// FNV-1a: fixed and platform-independent, unlike std::hash, so fingerprints survive a rebuild.
std::uint64_t fnv1a(std::string_view text) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

// Code scanning matches alerts across commits by partialFingerprints and computes a hash of the
// flagged line only when the key is absent. A config finding is identified by its file, rule and key
// path (a path-less one by its message), not by its line, so editing the value or moving the key does
// not reopen it; ":N" numbers repeats, as GitHub's own line hashes do.
class Fingerprints {
 public:
  std::string next(const std::string& uri, const Diagnostic& d) {
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx",
                  static_cast<unsigned long long>(fnv1a(uri + '\n' + std::string(toString(d.code)) + '\n' + (d.path.empty() ? d.message : d.path.toString()))));
    return std::string(hex) + ":" + std::to_string(++seen_[hex]);
  }

 private:
  std::map<std::string, int> seen_;
};

// ---- Estimates ---------------------------------------------------------------------------------


Json jsonValue(const std::string& jsonText) {
  Json parsed = parseJson(jsonText);
  return parsed.is_discarded() ? Json(jsonText) : parsed;
}

// The same figures and names as --format json's "estimate" and "plan", without the per-component
// arithmetic (the JSON format and the text table carry that).
Json estimateProperties(const FileReport& file, const Json& location) {
  const Estimate& e = *file.estimate;
  Json j;
  j["artifactLocation"] = location;
  j["summary"] = estimateSummary(file);
  j["gpu"] = {{"name", e.gpu.name}, {"vram_bytes", e.gpu.vramBytes}, {"given", file.gpuGiven}};
  j["peak_bytes"] = byteCount(e.peak().peakBytes);
  j["peak_phase"] = toString(e.peak().phase);
  j["low_bytes"] = byteCount(e.lowBytes);
  j["high_bytes"] = byteCount(e.highBytes);
  j["uncertainty_bytes"] = byteCount(e.highBytes - e.peak().peakBytes);
  j["verdict"] = std::string(toString(e.verdict));
  j["coarse"] = e.coarse;
  j["phases"] = Json::array();
  for (const auto& phase : e.phases) {
    j["phases"].push_back({{"name", toString(phase.phase)}, {"peak_bytes", byteCount(phase.peakBytes)}, {"low_bytes", byteCount(phase.lowBytes)},
                           {"high_bytes", byteCount(phase.highBytes)}, {"uncertainty_bytes", byteCount(phase.aboveBytes())}});
  }
  auto steps = [](const std::vector<PlanStep>& plan) {
    Json out = Json::array();
    for (const auto& step : plan) {
      out.push_back({{"rank", step.rank},
                     {"path", step.fix.path.toString()},
                     {"from", jsonValue(step.fix.fromJson)},
                     {"to", jsonValue(step.fix.toJson)},
                     {"saves_bytes", byteCount(step.savesBytes)},
                     {"peak_bytes_after", byteCount(step.peakBytesAfter)},
                     {"fits_after", step.fitsAfter},
                     {"needed", step.needed}});
    }
    return out;
  };
  j["plan"] = steps(file.plan);
  if (e.host) {
    const HostEstimate& h = *e.host;
    Json host;
    host["summary"] = hostSummary(file);
    host["ram_bytes"] = h.ramBytes ? Json(*h.ramBytes) : Json(nullptr);
    host["peak_bytes"] = byteCount(h.peak().peakBytes);
    host["peak_phase"] = toString(h.peak().phase);
    host["uncertainty_bytes"] = byteCount(h.peak().aboveBytes());
    host["verdict"] = std::string(toString(h.verdict));
    host["phases"] = Json::array();
    for (const auto& phase : h.phases) {
      host["phases"].push_back({{"name", toString(phase.phase)}, {"peak_bytes", byteCount(phase.peakBytes)}, {"uncertainty_bytes", byteCount(phase.aboveBytes())}});
    }
    host["plan"] = steps(file.hostPlan);
    j["host"] = std::move(host);
  }
  return j;
}

Json logProperties(const LogAnalysis& log, const Json& location) {
  return {{"artifactLocation", location},
          {"oom", log.oom},
          {"suspected", log.suspected},
          {"kind", std::string(toString(log.kind))},
          {"phase", std::string(toString(log.phase))},
          {"step", log.step ? Json(*log.step) : Json(nullptr)},
          {"gpu_state_suspect", log.gpuStateSuspect}};
}

// A suspected OOM's evidence as the result's related locations: each line it rests on, and why.
Json evidenceLocations(const LogAnalysis& log, const Json& location) {
  Json related = Json::array();
  int id = 0;
  for (const auto& e : log.evidence) {
    related.push_back({{"id", id++},
                       {"physicalLocation", {{"artifactLocation", location}, {"region", {{"startLine", std::max(1, e.line)}}}}},
                       {"message", {{"text", e.why}}}});
  }
  return related;
}

// ---- Results -----------------------------------------------------------------------------------

Json result(const FileReport& file, const Diagnostic& d, const Json& location, int ruleIndex, Fingerprints& fingerprints) {
  Json physical = {{"artifactLocation", location}, {"region", region(d.range)}};
  Json loc = {{"physicalLocation", std::move(physical)}};
  if (!d.path.empty()) {
    // A key path names a property of the config's mapping (SARIF §3.33.7's kind for JSON-like data).
    loc["logicalLocations"] = Json::array({{{"fullyQualifiedName", d.path.toString()}, {"kind", "property"}}});
  }
  Json r;
  r["ruleId"] = toString(d.code);
  r["ruleIndex"] = ruleIndex;
  r["level"] = level(d.severity);
  r["message"] = {{"text", d.message}};
  r["locations"] = Json::array({std::move(loc)});
  r["partialFingerprints"] = {{"primaryLocationLineHash", fingerprints.next(location["uri"].get<std::string>(), d)}};
  if (auto fix = sarifFix(file, d)) r["fixes"] = Json::array({fixJson(*fix, location)});
  if (d.code == RuleId::OL608 && file.log && !file.log->evidence.empty()) r["relatedLocations"] = evidenceLocations(*file.log, location);
  return r;
}

}  // namespace

std::string formatSarif(const Report& report) {
  const std::vector<std::string> rules = firedRules(report);
  Json ruleList = Json::array();
  for (const auto& code : rules) ruleList.push_back(ruleDescriptor(code));

  Json artifacts = Json::array();
  std::map<std::string, int> artifactIndex;  // one artifact per distinct location, even if named twice
  Json results = Json::array();
  Json estimates = Json::array();
  Json logs = Json::array();
  Fingerprints fingerprints;
  for (const auto& file : report.files) {
    Json location = artifactLocation(file.path);
    const std::string key = location.dump();
    auto [it, added] = artifactIndex.emplace(key, static_cast<int>(artifacts.size()));
    if (added) {
      Json artifact = {{"location", location}, {"roles", Json::array({"analysisTarget"})}};
      if (file.source) artifact["length"] = file.source->size();
      if (const char* type = mimeType(file)) artifact["mimeType"] = type;
      artifact["properties"] = {{"kind", toString(file.kind)}, {"unreadable", file.unreadable}};
      artifacts.push_back(std::move(artifact));
    }
    location["index"] = it->second;
    for (const auto& d : file.diagnostics) {
      const int ruleIndex = static_cast<int>(std::find(rules.begin(), rules.end(), toString(d.code)) - rules.begin());
      results.push_back(result(file, d, location, ruleIndex, fingerprints));
    }
    if (file.estimate) estimates.push_back(estimateProperties(file, location));
    if (file.log) logs.push_back(logProperties(*file.log, location));
  }

  Json invocation = {{"executionSuccessful", report.internalError.empty()}};
  if (!report.internalError.empty()) {
    invocation["toolExecutionNotifications"] = Json::array({{{"level", "error"}, {"message", {{"text", report.internalError}}}}});
  }

  Json driver;
  driver["name"] = "oomlint";
  driver["version"] = toolVersion();
  driver["semanticVersion"] = toolVersion();
  driver["informationUri"] = kProjectUri;
  driver["rules"] = std::move(ruleList);

  Json run;
  run["tool"] = {{"driver", std::move(driver)}};
  run["invocations"] = Json::array({std::move(invocation)});
  run["artifacts"] = std::move(artifacts);
  run["results"] = std::move(results);  // present even when empty: a clean run is not a broken one
  run["columnKind"] = "unicodeCodePoints";  // our columns count code points, SARIF's default is UTF-16
  run["properties"] = {{"oomlint", {{"estimates", std::move(estimates)}, {"logs", std::move(logs)}}}};

  Json log;
  log["$schema"] = "https://json.schemastore.org/sarif-2.1.0.json";
  log["version"] = "2.1.0";
  log["runs"] = Json::array({std::move(run)});
  // Inputs are valid UTF-8 by the time they are reported, but never let a dump throw.
  return log.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace oomlint
