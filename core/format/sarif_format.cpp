// `--format sarif`: SARIF 2.1.0 for code scanning (GitHub), IDE viewers and SARIF tooling. One run; the
// rules that fired with their help pages; each result at its exact region with the key path as a
// logical location; fixes only where the text to replace is known exactly; the estimates in the
// run's property bag. Traps seen in other linters' SARIF are avoided on purpose: stdout holds the one
// document, a clean run still has `results: []`, regions never hold 0, relative URIs carry %SRCROOT%.
#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/text/ascii.h"
#include "base/text/json_writer.h"
#include "format/formatters.h"
#include "format/report_fields.h"
#include "format/summary.h"
#include "base/knowledge/embedded.h"
#include "base/knowledge/knowledge.h"
#include "base/text/decimal_text.h"

namespace oomlint {

namespace {

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
    if (isAsciiAlnum(static_cast<char>(c)) || kKeep.find(static_cast<char>(c)) != std::string_view::npos) {
      out += static_cast<char>(c);
    } else {
      out += '%' + hexText(c, 2, /*upper=*/true);
    }
  }
  return out;
}

// Where a file is, as SARIF names it: an absolute URI, or one relative to the checkout's root.
struct ArtifactLocation {
  std::string uri;
  bool relative = false;  // to %SRCROOT%
  int index = -1;         // in the run's artifacts; -1 where the artifact itself is written

  void write(JsonWriter& w) const {
    w.beginObject().field("uri", uri);
    if (relative) w.field("uriBaseId", kSourceRoot);
    if (index >= 0) w.field("index", index);
    w.endObject();
  }
};

ArtifactLocation artifactLocation(const std::string& path) {
  if (path == "-" || path == "<stdin>") return {"stdin"};  // no file to resolve against a root
  if (path.starts_with('/')) return {"file://" + percentEncode(path)};
  // A Windows drive path ("C:\configs\a.yaml"), as the browser build may be handed.
  if (path.size() > 2 && isAsciiAlpha(path[0]) && path[1] == ':' && (path[2] == '\\' || path[2] == '/')) {
    std::string slashed = path;
    std::replace(slashed.begin(), slashed.end(), '\\', '/');
    return {"file:///" + slashed.substr(0, 2) + percentEncode(slashed.substr(2))};
  }
  std::string_view relative = path;
  while (relative.starts_with("./")) relative.remove_prefix(2);
  return {percentEncode(relative), true};
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

void writeRuleDescriptor(JsonWriter& w, const std::string& code) {
  const RuleInfo* rule = knowledge().catalog.find(code);
  const std::string helpUri = std::string(kRuleDocsBase) + code + ".md";
  if (rule == nullptr) {
    // A code the catalog lacks (a build defect): still a descriptor, so the result's ruleIndex holds.
    w.beginObject().field("id", code);
    w.key("shortDescription").beginObject().field("text", code).endObject();
    w.field("helpUri", helpUri).endObject();
    return;
  }
  const std::string_view embedded = rulePage(rule->code);
  const std::string page = !embedded.empty() ? std::string(embedded)
                                             : "# " + rule->code + " " + rule->name + "\n\n" + rule->title + "\n\n" + rule->summary + "\n";
  w.beginObject().field("id", rule->code).field("name", rule->name);
  w.key("shortDescription").beginObject().field("text", rule->title).endObject();
  w.key("fullDescription").beginObject().field("text", rule->summary).endObject();
  w.key("help").beginObject().field("text", page).field("markdown", page).endObject();
  w.field("helpUri", helpUri);
  w.key("defaultConfiguration").beginObject().field("level", level(rule->severity)).endObject();
  w.key("properties").beginObject().key("tags").beginArray().value("oomlint").value(ruleFamily(rule->code)).endArray().endObject();
  w.endObject();
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
void writeRegion(JsonWriter& w, const Range& r) {
  const int startLine = std::max(1, r.start.line);
  const int startColumn = std::max(1, r.start.column);
  const int endLine = std::max(startLine, r.end.line);
  int endColumn = std::max(1, r.end.column);
  if (endLine == startLine) endColumn = std::max(endColumn, startColumn);
  w.beginObject().field("startLine", startLine).field("startColumn", startColumn).field("endLine", endLine).field("endColumn", endColumn);
  w.endObject();
}

// ---- Fixes -------------------------------------------------------------------------------------

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
                            (step->topOnly ? " (brings the range's top to " + formatGiB(step->highBytesAfter) + ")"
                                           : " (saves about " + formatGiB(step->savesBytes) + ")");
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

void writeFix(JsonWriter& w, const SarifFix& sarif, const ArtifactLocation& location) {
  w.beginObject();
  w.key("description").beginObject().field("text", sarif.description).endObject();
  w.key("artifactChanges").beginArray().beginObject();
  location.write(w.key("artifactLocation"));
  w.key("replacements").beginArray();
  for (const auto& edit : sarif.fix.edits) {
    w.beginObject();
    writeRegion(w.key("deletedRegion"), edit.range);
    w.key("insertedContent").beginObject().field("text", edit.text).endObject();
    w.endObject();
  }
  w.endArray().endObject().endArray().endObject();
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
    const std::string hex = hexText(fnv1a(uri + '\n' + std::string(toString(d.code)) + '\n' + (d.path.empty() ? d.message : d.path.toString())), 16);
    return hex + ":" + std::to_string(++seen_[hex]);
  }

 private:
  std::map<std::string, int> seen_;
};

// ---- Estimates ---------------------------------------------------------------------------------

void writeSteps(JsonWriter& w, const std::vector<PlanStep>& plan) {
  w.beginArray();
  for (const auto& step : plan) {
    writePlanStepFigures(w.beginObject(), step);
    w.endObject();
  }
  w.endArray();
}

// The same figures and names as --format json's "estimate" and "plan", without the per-component
// arithmetic (the JSON format and the text table carry that).
void writeEstimateProperties(JsonWriter& w, const FileReport& file, const ArtifactLocation& location) {
  const Estimate& e = *file.estimate;
  w.beginObject();
  location.write(w.key("artifactLocation"));
  w.field("summary", estimateSummary(file));
  w.key("gpu").beginObject().field("name", e.gpu.name).field("vram_bytes", e.gpu.vramBytes).field("given", file.gpuGiven).endObject();
  w.field("peak_bytes", byteCount(e.peak().peakBytes))
      .field("peak_phase", toString(e.peak().phase))
      .field("low_bytes", byteCount(e.lowBytes))
      .field("high_bytes", byteCount(e.highBytes))
      .field("uncertainty_bytes", byteCount(e.highBytes - e.peak().peakBytes))
      .field("verdict", toString(e.verdict))
      .field("coarse", e.coarse);
  w.key("phases").beginArray();
  for (const auto& phase : e.phases) {
    writePhaseFigures(w.beginObject(), phase);
    w.endObject();
  }
  w.endArray();
  writeSteps(w.key("plan"), file.plan);
  if (e.host) {
    const HostEstimate& h = *e.host;
    w.key("host").beginObject()
        .field("summary", hostSummary(file))
        .field("ram_bytes", h.ramBytes)
        .field("peak_bytes", byteCount(h.peak().peakBytes))
        .field("peak_phase", toString(h.peak().phase))
        .field("uncertainty_bytes", byteCount(h.peak().aboveBytes()))
        .field("verdict", toString(h.verdict));
    w.key("phases").beginArray();
    for (const auto& phase : h.phases) {
      w.beginObject()
          .field("name", toString(phase.phase))
          .field("peak_bytes", byteCount(phase.peakBytes))
          .field("uncertainty_bytes", byteCount(phase.aboveBytes()))
          .endObject();
    }
    w.endArray();
    writeSteps(w.key("plan"), file.hostPlan);
    w.endObject();
  }
  w.endObject();
}

void writeLogProperties(JsonWriter& w, const LogAnalysis& log, const ArtifactLocation& location) {
  w.beginObject();
  location.write(w.key("artifactLocation"));
  w.field("oom", log.oom)
      .field("suspected", log.suspected)
      .field("kind", toString(log.kind))
      .field("phase", toString(log.phase))
      .field("step", log.step)
      .field("gpu_state_suspect", log.gpuStateSuspect)
      .endObject();
}

// A suspected OOM's evidence as the result's related locations: each line it rests on, and why.
void writeEvidenceLocations(JsonWriter& w, const LogAnalysis& log, const ArtifactLocation& location) {
  w.beginArray();
  int id = 0;
  for (const auto& e : log.evidence) {
    w.beginObject().field("id", id++);
    w.key("physicalLocation").beginObject();
    location.write(w.key("artifactLocation"));
    w.key("region").beginObject().field("startLine", std::max(1, e.line)).endObject();
    w.endObject();
    w.key("message").beginObject().field("text", e.why).endObject();
    w.endObject();
  }
  w.endArray();
}

// ---- Results -----------------------------------------------------------------------------------

void writeResult(JsonWriter& w, const FileReport& file, const Diagnostic& d, const ArtifactLocation& location, int ruleIndex,
                 Fingerprints& fingerprints) {
  w.beginObject().field("ruleId", toString(d.code)).field("ruleIndex", ruleIndex).field("level", level(d.severity));
  w.key("message").beginObject().field("text", d.message).endObject();
  w.key("locations").beginArray().beginObject();
  w.key("physicalLocation").beginObject();
  location.write(w.key("artifactLocation"));
  writeRegion(w.key("region"), d.range);
  w.endObject();
  if (!d.path.empty()) {
    // A key path names a property of the config's mapping (SARIF §3.33.7's kind for JSON-like data).
    w.key("logicalLocations").beginArray();
    w.beginObject().field("fullyQualifiedName", d.path.toString()).field("kind", "property").endObject();
    w.endArray();
  }
  w.endObject().endArray();
  w.key("partialFingerprints").beginObject().field("primaryLocationLineHash", fingerprints.next(location.uri, d)).endObject();
  if (auto fix = sarifFix(file, d)) {
    w.key("fixes").beginArray();
    writeFix(w, *fix, location);
    w.endArray();
  }
  if (d.code == RuleId::OL608 && file.log && !file.log->evidence.empty()) writeEvidenceLocations(w.key("relatedLocations"), *file.log, location);
  w.endObject();
}

}  // namespace

std::string formatSarif(const Report& report) {
  const std::vector<std::string> rules = firedRules(report);

  // One artifact per distinct location, even if named twice; each file's location points at its own.
  std::vector<ArtifactLocation> locations;
  std::vector<const FileReport*> artifacts;
  std::map<std::pair<std::string, bool>, int> artifactIndex;
  for (const auto& file : report.files) {
    ArtifactLocation location = artifactLocation(file.path);
    auto [it, added] = artifactIndex.emplace(std::pair{location.uri, location.relative}, static_cast<int>(artifacts.size()));
    if (added) artifacts.push_back(&file);
    location.index = it->second;
    locations.push_back(std::move(location));
  }

  JsonWriter w(2);
  w.beginObject().field("$schema", "https://json.schemastore.org/sarif-2.1.0.json").field("version", "2.1.0");
  w.key("runs").beginArray().beginObject();

  w.key("tool").beginObject().key("driver").beginObject();
  w.field("name", "oomlint").field("version", toolVersion()).field("semanticVersion", toolVersion()).field("informationUri", kProjectUri);
  w.key("rules").beginArray();
  for (const auto& code : rules) writeRuleDescriptor(w, code);
  w.endArray().endObject().endObject();

  w.key("invocations").beginArray().beginObject().field("executionSuccessful", report.internalError.empty());
  if (!report.internalError.empty()) {
    w.key("toolExecutionNotifications").beginArray().beginObject().field("level", "error");
    w.key("message").beginObject().field("text", report.internalError).endObject();
    w.endObject().endArray();
  }
  w.endObject().endArray();

  w.key("artifacts").beginArray();
  for (const FileReport* file : artifacts) {
    w.beginObject();
    artifactLocation(file->path).write(w.key("location"));
    w.key("roles").beginArray().value("analysisTarget").endArray();
    if (file->source) w.field("length", file->source->size());
    if (const char* type = mimeType(*file)) w.field("mimeType", type);
    w.key("properties").beginObject().field("kind", toString(file->kind)).field("unreadable", file->unreadable).endObject();
    w.endObject();
  }
  w.endArray();

  Fingerprints fingerprints;
  w.key("results").beginArray();  // present even when empty: a clean run is not a broken one
  for (std::size_t i = 0; i < report.files.size(); ++i) {
    const FileReport& file = report.files[i];
    for (const auto& d : file.diagnostics) {
      const int ruleIndex = static_cast<int>(std::find(rules.begin(), rules.end(), toString(d.code)) - rules.begin());
      writeResult(w, file, d, locations[i], ruleIndex, fingerprints);
    }
  }
  w.endArray();
  w.field("columnKind", "unicodeCodePoints");  // our columns count code points, SARIF's default is UTF-16

  w.key("properties").beginObject().key("oomlint").beginObject();
  w.key("estimates").beginArray();
  for (std::size_t i = 0; i < report.files.size(); ++i) {
    if (report.files[i].estimate) writeEstimateProperties(w, report.files[i], locations[i]);
  }
  w.endArray().key("logs").beginArray();
  for (std::size_t i = 0; i < report.files.size(); ++i) {
    if (report.files[i].log) writeLogProperties(w, *report.files[i].log, locations[i]);
  }
  w.endArray().endObject().endObject();

  w.endObject().endArray().endObject();
  return w.take() + "\n";
}

}  // namespace oomlint
