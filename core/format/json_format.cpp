#include <utility>

#include "base/text/json_writer.h"
#include "format/formatters.h"
#include "format/report_fields.h"
#include "format/summary.h"

namespace oomlint {

namespace {

void writeRange(JsonWriter& w, const Range& r) {
  w.beginObject();
  w.key("start").beginObject().field("line", r.start.line).field("column", r.start.column).endObject();
  w.key("end").beginObject().field("line", r.end.line).field("column", r.end.column).endObject();
  w.endObject();
}

void writeComponents(JsonWriter& w, const PhaseEstimate& phase) {
  w.beginArray();
  for (const auto& c : phase.components) {
    w.beginObject().field("name", c.name).field("bytes", byteCount(c.bytes)).field("how", c.how);
    if (c.fileBacked) w.field("file_backed", true);
    w.endObject();
  }
  w.endArray();
}

// System RAM beside the VRAM: the same shape, against the machine's RAM (null when not given).
void writeHost(JsonWriter& w, const HostEstimate& h) {
  const PhaseEstimate& peak = h.peak();
  w.beginObject()
      .field("ram_bytes", h.ramBytes)
      .field("peak_bytes", byteCount(peak.peakBytes))
      .field("low_bytes", byteCount(peak.lowBytes))
      .field("high_bytes", byteCount(peak.highBytes))
      .field("uncertainty_bytes", byteCount(peak.aboveBytes()))
      .field("file_backed_bytes", byteCount(peak.peakBytes - h.committedBytes(peak)))
      .field("peak_phase", toString(peak.phase))
      .field("verdict", toString(h.verdict))
      .field("verdict_phase", toString(h.deciding().phase))
      .field("log_killed", h.logKilled)
      .field("notes", h.notes);
  w.key("phases").beginArray();
  for (const auto& phase : h.phases) {
    w.beginObject()
        .field("name", toString(phase.phase))
        .field("peak_bytes", byteCount(phase.peakBytes))
        .field("uncertainty_bytes", byteCount(phase.aboveBytes()))
        .field("file_backed_bytes", byteCount(phase.peakBytes - h.committedBytes(phase)));
    writeComponents(w.key("components"), phase);
    w.endObject();
  }
  w.endArray().endObject();
}

void writeEstimate(JsonWriter& w, const Estimate& e) {
  w.beginObject();
  w.key("gpu").beginObject().field("name", e.gpu.name).field("vram_bytes", e.gpu.vramBytes).endObject();
  w.field("peak_bytes", byteCount(e.peak().peakBytes))
      .field("peak_phase", toString(e.peak().phase))
      .field("verdict", toString(e.verdict))
      .field("low_bytes", byteCount(e.lowBytes))
      .field("high_bytes", byteCount(e.highBytes))
      .field("uncertainty_bytes", byteCount(e.highBytes - e.peak().peakBytes))
      .field("coarse", e.coarse);
  if (!e.assumes.empty()) w.field("assumes", e.assumes);
  w.key("phases").beginArray();
  for (const auto& phase : e.phases) {
    writePhaseFigures(w.beginObject(), phase);
    w.key("range").beginArray();
    for (const auto& r : phase.range) {
      w.beginObject().field("why", r.why).field("below_bytes", byteCount(r.belowBytes)).field("above_bytes", byteCount(r.aboveBytes)).endObject();
    }
    w.endArray();
    writeComponents(w.key("components"), phase);
    w.endObject();
  }
  w.endArray();
  if (e.host) writeHost(w.key("host"), *e.host);
  w.endObject();
}

void writePlan(JsonWriter& w, const std::vector<PlanStep>& plan) {
  w.beginArray();
  for (const auto& step : plan) {
    writePlanStepFigures(w.beginObject(), step);
    w.field("why", step.why);
    if (step.rampUp) w.field("ramp_up", true);
    // A plan step changes one value: one edit.
    if (step.fix.edits.size() == 1) {
      const Edit& edit = step.fix.edits.front();
      w.key("edit").beginObject();
      writeRange(w.key("range"), edit.range);
      w.field("text", edit.text).endObject();
    }
    w.endObject();
  }
  w.endArray();
}

void writeLog(JsonWriter& w, const LogAnalysis& log) {
  w.beginObject()
      .field("oom", log.oom)
      .field("kind", toString(log.kind))
      .field("phase", toString(log.phase))
      .field("step", log.step)
      .field("gpu_state_suspect", log.gpuStateSuspect);
  if (!log.tool.empty()) w.field("tool", log.tool);
  w.key("numbers").beginObject();
  const OomNumbers& n = log.numbers;
  for (const auto& [key, value] : {std::pair{"tried_to_allocate", n.triedToAllocate}, {"total_capacity", n.totalCapacity},
                                   {"free", n.free}, {"allocated_by_pytorch", n.allocatedByPytorch},
                                   {"reserved_unallocated", n.reservedUnallocated}, {"process_in_use", n.processInUse}}) {
    if (value) w.field(key, *value);
  }
  w.endObject();
  // Added after the first fields (the contract adds, never reorders): an OOM the log only suggests.
  w.field("suspected", log.suspected);
  w.key("evidence").beginArray();
  for (const auto& e : log.evidence) w.beginObject().field("line", e.line).field("text", e.text).field("why", e.why).endObject();
  w.endArray();
  // ComfyUI's start-up: the card's memory and the memory mode its flags chose.
  if (log.cardBytes) w.field("card_bytes", *log.cardBytes);
  if (!log.vramState.empty()) w.field("vram_state", log.vramState);
  if (!log.toolVersion.empty()) w.field("tool_version", log.toolVersion);
  w.endObject();
}

}  // namespace

std::string formatJson(const Report& report) {
  JsonWriter w(2);
  w.beginObject();
  w.key("tool").beginObject().field("name", "oomlint").field("version", toolVersion()).endObject();
  w.key("files").beginArray();
  for (const auto& file : report.files) {
    w.beginObject().field("path", file.path).field("kind", toString(file.kind));
    w.key("diagnostics").beginArray();
    for (const auto& d : file.diagnostics) {
      w.beginObject()
          .field("code", toString(d.code))
          .field("severity", toString(d.severity))
          .field("message", d.message)
          .field("path", d.path.toString());
      writeRange(w.key("range"), d.range);
      if (d.fix) {
        w.key("fix").beginObject().field("path", d.fix->path.toString());
        w.key("from").jsonValue(d.fix->fromJson);
        w.key("to").jsonValue(d.fix->toJson);
        w.endObject();
      }
      w.endObject();
    }
    w.endArray();
    if (file.estimate) {
      writeEstimate(w.key("estimate"), *file.estimate);
      writePlan(w.key("plan"), file.plan);
      if (file.estimate->host) writePlan(w.key("host_plan"), file.hostPlan);
    }
    if (file.log) writeLog(w.key("log"), *file.log);
    w.endObject();
  }
  w.endArray();
  if (!report.internalError.empty()) w.field("error", report.internalError);
  w.endObject();
  return w.take() + "\n";
}

}  // namespace oomlint
