#include <nlohmann/json.hpp>
#include <utility>

#include "format/formatters.h"
#include "format/summary.h"

namespace oomlint {

namespace {

nlohmann::ordered_json position(const Position& p) { return {{"line", p.line}, {"column", p.column}}; }

nlohmann::ordered_json rangeJson(const Range& r) { return {{"start", position(r.start)}, {"end", position(r.end)}}; }

nlohmann::ordered_json fixValue(const std::string& jsonText) {
  auto parsed = nlohmann::ordered_json::parse(jsonText, nullptr, /*allow_exceptions=*/false);
  return parsed.is_discarded() ? nlohmann::ordered_json(jsonText) : parsed;
}


nlohmann::ordered_json componentsJson(const PhaseEstimate& phase) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& c : phase.components) {
    nlohmann::ordered_json j = {{"name", c.name}, {"bytes", byteCount(c.bytes)}, {"how", c.how}};
    if (c.fileBacked) j["file_backed"] = true;
    out.push_back(std::move(j));
  }
  return out;
}

// System RAM beside the VRAM: the same shape, against the machine's RAM (null when not given).
nlohmann::ordered_json hostJson(const HostEstimate& h) {
  nlohmann::ordered_json j;
  const PhaseEstimate& peak = h.peak();
  j["ram_bytes"] = h.ramBytes ? nlohmann::ordered_json(*h.ramBytes) : nlohmann::ordered_json(nullptr);
  j["peak_bytes"] = byteCount(peak.peakBytes);
  j["low_bytes"] = byteCount(peak.lowBytes);
  j["high_bytes"] = byteCount(peak.highBytes);
  j["uncertainty_bytes"] = byteCount(peak.aboveBytes());
  j["file_backed_bytes"] = byteCount(peak.peakBytes - h.committedBytes(peak));
  j["peak_phase"] = toString(peak.phase);
  j["verdict"] = std::string(toString(h.verdict));
  j["verdict_phase"] = toString(h.deciding().phase);
  j["log_killed"] = h.logKilled;
  j["notes"] = h.notes;
  j["phases"] = nlohmann::ordered_json::array();
  for (const auto& phase : h.phases) {
    j["phases"].push_back({{"name", toString(phase.phase)},
                           {"peak_bytes", byteCount(phase.peakBytes)},
                           {"uncertainty_bytes", byteCount(phase.aboveBytes())},
                           {"file_backed_bytes", byteCount(phase.peakBytes - h.committedBytes(phase))},
                           {"components", componentsJson(phase)}});
  }
  return j;
}

nlohmann::ordered_json estimateJson(const Estimate& e) {
  nlohmann::ordered_json j;
  j["gpu"] = {{"name", e.gpu.name}, {"vram_bytes", e.gpu.vramBytes}};
  j["peak_bytes"] = byteCount(e.peak().peakBytes);
  j["peak_phase"] = toString(e.peak().phase);
  j["verdict"] = std::string(toString(e.verdict));
  j["low_bytes"] = byteCount(e.lowBytes);
  j["high_bytes"] = byteCount(e.highBytes);
  j["uncertainty_bytes"] = byteCount(e.highBytes - e.peak().peakBytes);
  j["coarse"] = e.coarse;
  if (!e.assumes.empty()) j["assumes"] = e.assumes;
  j["phases"] = nlohmann::ordered_json::array();
  for (const auto& phase : e.phases) {
    nlohmann::ordered_json p;
    p["name"] = toString(phase.phase);
    p["peak_bytes"] = byteCount(phase.peakBytes);
    p["low_bytes"] = byteCount(phase.lowBytes);
    p["high_bytes"] = byteCount(phase.highBytes);
    p["uncertainty_bytes"] = byteCount(phase.aboveBytes());
    p["range"] = nlohmann::ordered_json::array();
    for (const auto& r : phase.range) {
      p["range"].push_back({{"why", r.why}, {"below_bytes", byteCount(r.belowBytes)}, {"above_bytes", byteCount(r.aboveBytes)}});
    }
    p["components"] = componentsJson(phase);
    j["phases"].push_back(std::move(p));
  }
  if (e.host) j["host"] = hostJson(*e.host);
  return j;
}

nlohmann::ordered_json planJson(const std::vector<PlanStep>& plan) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& step : plan) {
    nlohmann::ordered_json item = {{"rank", step.rank},
                   {"path", step.fix.path.toString()},
                   {"from", fixValue(step.fix.fromJson)},
                   {"to", fixValue(step.fix.toJson)},
                   {"saves_bytes", byteCount(step.savesBytes)},
                   {"peak_bytes_after", byteCount(step.peakBytesAfter)},
                   {"fits_after", step.fitsAfter},
                   {"needed", step.needed},
                   {"why", step.why}};
    if (step.rampUp) item["ramp_up"] = true;
    // A plan step changes one value: one edit.
    if (step.fix.edits.size() == 1) {
      const Edit& edit = step.fix.edits.front();
      item["edit"] = {{"range", rangeJson(edit.range)}, {"text", edit.text}};
    }
    out.push_back(std::move(item));
  }
  return out;
}

nlohmann::ordered_json evidenceJson(const std::vector<LogEvidence>& evidence) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& e : evidence) out.push_back({{"line", e.line}, {"text", e.text}, {"why", e.why}});
  return out;
}

nlohmann::ordered_json logJson(const LogAnalysis& log) {
  nlohmann::ordered_json j;
  j["oom"] = log.oom;
  j["kind"] = std::string(toString(log.kind));
  j["phase"] = std::string(toString(log.phase));
  j["step"] = log.step ? nlohmann::ordered_json(*log.step) : nlohmann::ordered_json(nullptr);
  j["gpu_state_suspect"] = log.gpuStateSuspect;
  if (!log.tool.empty()) j["tool"] = log.tool;
  nlohmann::ordered_json numbers = nlohmann::ordered_json::object();
  const OomNumbers& n = log.numbers;
  for (const auto& [key, value] : {std::pair{"tried_to_allocate", n.triedToAllocate}, {"total_capacity", n.totalCapacity},
                                   {"free", n.free}, {"allocated_by_pytorch", n.allocatedByPytorch},
                                   {"reserved_unallocated", n.reservedUnallocated}, {"process_in_use", n.processInUse}}) {
    if (value) numbers[key] = *value;
  }
  j["numbers"] = numbers;
  // Added after the first fields (the contract adds, never reorders): an OOM the log only suggests.
  j["suspected"] = log.suspected;
  j["evidence"] = evidenceJson(log.evidence);
  return j;
}

}  // namespace

std::string formatJson(const Report& report) {
  nlohmann::ordered_json out;
  out["tool"] = {{"name", "oomlint"}, {"version", toolVersion()}};
  out["files"] = nlohmann::ordered_json::array();
  if (!report.internalError.empty()) out["error"] = report.internalError;
  for (const auto& file : report.files) {
    nlohmann::ordered_json f;
    f["path"] = file.path;
    f["kind"] = toString(file.kind);
    f["diagnostics"] = nlohmann::ordered_json::array();
    for (const auto& d : file.diagnostics) {
      nlohmann::ordered_json j;
      j["code"] = toString(d.code);
      j["severity"] = std::string(toString(d.severity));
      j["message"] = d.message;
      j["path"] = d.path.toString();
      j["range"] = rangeJson(d.range);
      if (d.fix) j["fix"] = {{"path", d.fix->path.toString()}, {"from", fixValue(d.fix->fromJson)}, {"to", fixValue(d.fix->toJson)}};
      f["diagnostics"].push_back(std::move(j));
    }
    if (file.estimate) {
      f["estimate"] = estimateJson(*file.estimate);
      f["plan"] = planJson(file.plan);
      if (file.estimate->host) f["host_plan"] = planJson(file.hostPlan);
    }
    if (file.log) f["log"] = logJson(*file.log);
    out["files"].push_back(std::move(f));
  }
  // Invalid UTF-8 cannot reach here (inputs are validated), but never let a dump throw.
  return out.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace oomlint
