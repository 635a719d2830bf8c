#include <algorithm>

#include "format/formatters.h"
#include "format/summary.h"
#include "base/knowledge/knowledge.h"

namespace oomlint {

namespace {

struct Palette {
  std::string_view bold, red, yellow, blue, cyan, dim, reset;
};

Palette paletteFor(const TextStyle& style) {
  if (!style.color) return {};
  return {"\x1b[1m", "\x1b[1;31m", "\x1b[1;33m", "\x1b[1;34m", "\x1b[36m", "\x1b[2m", "\x1b[0m"};
}

std::string_view severityColor(const Palette& c, Severity s) {
  return s == Severity::Error ? c.red : s == Severity::Warning ? c.yellow : c.blue;
}

// Byte offset of the code point with 0-based index `index` in valid UTF-8 text.
std::size_t byteOfCodePoint(std::string_view text, int index) {
  std::size_t i = 0;
  for (int seen = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80 && seen++ == index) return i;
  }
  return text.size();
}

// The part of a source line to show: all of it, or a window around the range on a very long line.
// Tabs show as single spaces so that code-point columns line up with the underline.
struct Excerpt {
  std::string text;
  int firstColumn = 1;  // the column of text[0]
};

Excerpt excerptOf(std::string_view line, int column) {
  constexpr int kWidth = 120;
  constexpr int kBefore = 40;
  Excerpt e;
  const int width = codePointCount(line);
  if (width <= kWidth) {
    e.text = std::string(line);
  } else {
    e.firstColumn = std::clamp(column - kBefore, 1, std::max(1, width - kWidth + 1));
    const std::size_t from = byteOfCodePoint(line, e.firstColumn - 1);
    const std::size_t to = byteOfCodePoint(line, e.firstColumn - 1 + kWidth);
    e.text = std::string(line.substr(from, to - from));
  }
  std::replace(e.text.begin(), e.text.end(), '\t', ' ');
  return e;
}

void appendSnippet(std::string& out, const SourceText& source, const Diagnostic& d, const Palette& c) {
  const int line = d.range.start.line;
  if (line < 1 || line > source.lineCount()) return;
  const Excerpt excerpt = excerptOf(source.line(line), d.range.start.column);
  const int shown = codePointCount(excerpt.text);
  const std::string number = std::to_string(line);
  const std::string gutter(number.size(), ' ');
  // Columns relative to the excerpt; a range running past the line (or onto the next) ends at its end.
  const int start = std::clamp(d.range.start.column - excerpt.firstColumn + 1, 1, shown + 1);
  int end = d.range.end.line == line ? d.range.end.column - excerpt.firstColumn + 1 : shown + 1;
  end = std::clamp(end, start + 1, std::max(start + 1, shown + 1));
  out += std::string(c.cyan) + gutter + " |" + std::string(c.reset) + "\n";
  out += std::string(c.cyan) + number + " |" + std::string(c.reset) + " " + excerpt.text + "\n";
  out += std::string(c.cyan) + gutter + " |" + std::string(c.reset) + " " + std::string(static_cast<std::size_t>(start - 1), ' ') +
         std::string(severityColor(c, d.severity)) + "^" + std::string(static_cast<std::size_t>(end - start - 1), '~') +
         std::string(c.reset) + "\n";
}

std::string padRight(std::string_view text, std::size_t width) {
  std::string s(text);
  const std::size_t w = static_cast<std::size_t>(codePointCount(s));
  if (w < width) s.append(width - w, ' ');
  return s;
}

std::string padLeft(const std::string& s, std::size_t width) {
  const std::size_t w = static_cast<std::size_t>(codePointCount(s));
  return w < width ? std::string(width - w, ' ') + s : s;
}

// A bar of `width` cells for `bytes` on a scale where `scale` bytes fill it; '|' marks the card.
std::string bar(double bytes, double vram, double scale, int width) {
  std::string out;
  const int filled = static_cast<int>(bytes / scale * width + 0.5);
  const int line = static_cast<int>(vram / scale * width + 0.5);
  for (int i = 0; i < width; ++i) {
    if (i == line) out += "│";
    else out += i < filled ? "█" : "·";
  }
  return out;
}

void appendEstimate(std::string& out, const FileReport& file, const Palette& c) {
  const Estimate& e = *file.estimate;
  const PhaseEstimate& peak = e.peak();
  const double vram = static_cast<double>(e.gpu.vramBytes);
  const std::string_view verdictColor = e.verdict == Verdict::Oom ? c.red : e.verdict == Verdict::Borderline ? c.yellow : c.blue;
  const std::string card = e.gpu.describe() + (file.gpuGiven ? "" : ", the default card (choose with --gpu or --vram)");
  out += std::string(c.bold) + file.path + ":" + std::string(c.reset) + " estimate on " + card + ": peak " + formatRange(e) + " in " + std::string(toString(peak.phase)) + " — " + std::string(verdictColor) + std::string(toString(e.verdict)) +
         std::string(c.reset) + (e.coarse ? " (coarse: this model's dimensions are approximate)" : "") + "\n";
  if (!file.gpuGiven) return;
  double scale = vram;
  for (const auto& phase : e.phases) scale = std::max(scale, phase.peakBytes);
  scale *= 1.05;
  std::size_t nameWidth = 16;  // the longest phase name sets the column (controlnet_preprocess)
  for (const auto& phase : e.phases) nameWidth = std::max(nameWidth, toString(phase.phase).size() + 1);
  for (const auto& phase : e.phases) {
    out += "  " + padRight(toString(phase.phase), nameWidth) + padLeft(formatGiB(phase.peakBytes), 10) + "  " + bar(phase.peakBytes, vram, scale, 40) +
           (&phase == &peak ? "  ← peak" : "") + "\n";
  }
  out += "  " + std::string(c.dim) + std::string(toString(peak.phase)) + " components:" + std::string(c.reset) + "\n";
  for (const auto& comp : peak.components) {
    out += "    " + padRight(comp.name, 24) + padLeft(formatGiB(comp.bytes), 10) + "  " + std::string(c.dim) + comp.how +
           std::string(c.reset) + "\n";
  }
  if (!peak.range.empty()) {  // none: nothing in the peak phase is uncertain (ComfyUI filled its budget, say)
    out += "  " + std::string(c.dim) + "range " + gib(peak.lowBytes) + "–" + gib(peak.highBytes) + " GiB from:" + std::string(c.reset);
    for (std::size_t i = 0; i < peak.range.size(); ++i) {
      const RangeReason& r = peak.range[i];
      out += std::string(i == 0 ? " " : "; ") + r.why + " (−" + gib(r.belowBytes) + "/+" + gib(r.aboveBytes) + ")";
    }
    out += "\n";
  }
  if (!e.assumes.empty()) out += "  " + std::string(c.dim) + "assumes " + e.assumes + std::string(c.reset) + "\n";
  if (file.plan.empty()) return;
  if (file.plan.front().rampUp) {
    out += "  room to add back, one at a time, once a run is stable:\n";
    for (const auto& step : file.plan) {
      const double cost = -step.savesBytes;
      out += "    " + step.fix.path.toString() + ": " + step.fix.fromJson + " → " + step.fix.toJson + "   " +
             (cost < knowledge().advice.negligibleBytes
                  ? "the peak stays " + formatGiB(step.peakBytesAfter) + " (another phase sets it)"
                  : "costs " + formatGiB(cost) + ", peak " + formatGiB(step.peakBytesAfter)) +
             "\n";
    }
    return;
  }
  out += file.kind == InputKind::WebUiArgs || file.kind == InputKind::ComfyUiWorkflow ? "  fixes, cheapest first (needed steps marked *):\n"
                                   : "  rollback plan, in order (needed steps marked *):\n";
  for (const auto& step : file.plan) {
    out += "  " + std::string(step.needed ? "*" : " ") + std::to_string(step.rank) + ". " + step.fix.path.toString() + ": " + step.fix.fromJson +
           " → " + step.fix.toJson + "   " +
           (step.topOnly ? "the range's top to " + formatGiB(step.highBytesAfter) : "saves " + formatGiB(step.savesBytes)) +
           ", peak after " + formatGiB(step.peakBytesAfter) + (step.fitsAfter ? " (fits)" : "") + "\n      " + std::string(c.dim) + step.why +
           std::string(c.reset) + "\n";
  }
}

// Host RAM: one line always; with the machine's RAM (or a log's kill) its phases, the peak's components,
// what the figures leave out and the host-RAM plan.
void appendHost(std::string& out, const FileReport& file, const Palette& c) {
  const HostEstimate& h = *file.estimate->host;
  const std::optional<Verdict>& v = h.verdict;
  const std::string_view color = !v ? c.dim : *v == Verdict::Oom ? c.red : *v == Verdict::Borderline ? c.yellow : c.blue;
  out += std::string(c.bold) + file.path + ":" + std::string(c.reset) + " " + std::string(color) + hostSummary(file) + std::string(c.reset) + "\n";
  if (!v) return;
  const PhaseEstimate& peak = h.peak();
  const double ram = h.ramBytes ? static_cast<double>(*h.ramBytes) : peak.peakBytes;
  double scale = ram;
  for (const auto& phase : h.phases) scale = std::max(scale, phase.peakBytes);
  scale *= 1.05;
  for (const auto& phase : h.phases) {
    out += "  " + padRight(toString(phase.phase), 16) + padLeft(formatGiB(phase.peakBytes), 10) + "  " + bar(phase.peakBytes, ram, scale, 40) +
           (&phase == &peak ? "  ← peak" : "") + "\n";
  }
  out += "  " + std::string(c.dim) + std::string(toString(peak.phase)) + " in host RAM:" + std::string(c.reset) + "\n";
  for (const auto& comp : peak.components) {
    out += "    " + padRight(comp.name, 36) + padLeft(formatGiB(comp.bytes), 10) + "  " + std::string(c.dim) + comp.how + std::string(c.reset) + "\n";
  }
  for (const auto& note : h.notes) out += "  " + std::string(c.dim) + "not counted: " + note + std::string(c.reset) + "\n";
  if (file.hostPlan.empty()) return;
  out += "  host-RAM plan, in order (needed steps marked *):\n";
  for (const auto& step : file.hostPlan) {
    out += "  " + std::string(step.needed ? "*" : " ") + std::to_string(step.rank) + ". " + step.fix.path.toString() + ": " + step.fix.fromJson +
           " → " + step.fix.toJson + "   saves " + formatGiB(step.savesBytes) + ", peak after " + formatGiB(step.peakBytesAfter) +
           (step.fitsAfter ? " (fits)" : "") + "\n      " + std::string(c.dim) + step.why + std::string(c.reset) + "\n";
  }
}

}  // namespace

std::string formatText(const Report& report, const TextStyle& style) {
  const Palette c = paletteFor(style);
  std::string out;
  if (!report.internalError.empty()) return "oomlint: internal error: " + report.internalError + "\n";
  int counts[3] = {0, 0, 0};
  for (const auto& file : report.files) {
    for (const auto& d : file.diagnostics) {
      ++counts[static_cast<int>(d.severity)];
      out += std::string(c.bold) + file.path + ":" + std::to_string(d.range.start.line) + ":" +
             std::to_string(d.range.start.column) + ":" + std::string(c.reset) + " " +
             std::string(severityColor(c, d.severity)) + std::string(toString(d.severity)) + ":" + std::string(c.reset) +
             " " + d.message + " " + std::string(c.dim) + "[" + ruleLabel(d.code) + "]" +
             std::string(c.reset) + "\n";
      if (file.source) appendSnippet(out, *file.source, d, c);
    }
    if (file.estimate) appendEstimate(out, file, c);
    if (file.estimate && file.estimate->host) appendHost(out, file, c);
  }
  const std::size_t files = report.files.size();
  const std::string where = " in " + std::to_string(files) + (files == 1 ? " file" : " files");
  if (counts[0] + counts[1] + counts[2] == 0) {
    out += "no problems found" + where + "\n";
  } else {
    auto part = [](int n, const char* one, const char* many) { return std::to_string(n) + " " + (n == 1 ? one : many); };
    out += part(counts[2], "error", "errors") + ", " + part(counts[1], "warning", "warnings") + ", " +
           part(counts[0], "info", "infos") + where + "\n";
  }
  return out;
}

}  // namespace oomlint
