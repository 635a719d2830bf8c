// `--format github`: GitHub Actions workflow commands, which the runner turns into annotations on
// the pull request's diff. GitHub keeps at most 10 annotations of each level per step, so the most
// severe come first and what does not fit is counted on a plain summary line.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "format/formatters.h"
#include "format/summary.h"

namespace oomlint {

namespace {

constexpr int kAnnotationsPerLevel = 10;

// The message part of a workflow command: `%`, CR and LF must be escaped or the command breaks.
std::string escapeData(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '%') out += "%25";
    else if (c == '\r') out += "%0D";
    else if (c == '\n') out += "%0A";
    else out += c;
  }
  return out;
}

// A property value (file=…, title=…): additionally `:` and `,`, which delimit the properties.
std::string escapeProperty(const std::string& text) {
  std::string out;
  for (char c : escapeData(text)) {
    if (c == ':') out += "%3A";
    else if (c == ',') out += "%2C";
    else out += c;
  }
  return out;
}

const char* level(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    default: return "notice";
  }
}

struct Located {
  const FileReport* file;
  const Diagnostic* diagnostic;
};

std::string annotation(const Located& item) {
  const Diagnostic& d = *item.diagnostic;
  std::string props = "file=" + escapeProperty(item.file->path) + ",line=" + std::to_string(d.range.start.line);
  const bool oneLine = d.range.end.line == d.range.start.line;
  // GitHub rejects column fields on a range that spans lines.
  if (oneLine) props += ",col=" + std::to_string(d.range.start.column);
  props += ",endLine=" + std::to_string(std::max(d.range.end.line, d.range.start.line));
  if (oneLine) props += ",endColumn=" + std::to_string(std::max(d.range.end.column, d.range.start.column));
  props += ",title=" + escapeProperty(ruleLabel(d.code));
  return "::" + std::string(level(d.severity)) + " " + props + "::" + escapeData(d.message) + "\n";
}

}  // namespace

std::string formatGithub(const Report& report) {
  std::vector<Located> all;
  for (const auto& file : report.files) {
    for (const auto& d : file.diagnostics) all.push_back({&file, &d});
  }
  std::stable_sort(all.begin(), all.end(), [](const Located& a, const Located& b) {
    return a.diagnostic->severity > b.diagnostic->severity;  // Error > Warning > Info
  });
  std::string out;
  std::map<Severity, int> shown;
  int dropped = 0;
  for (const auto& item : all) {
    if (shown[item.diagnostic->severity]++ >= kAnnotationsPerLevel) {
      ++dropped;
      continue;
    }
    out += annotation(item);
  }
  for (const auto& file : report.files) {
    if (const std::string summary = estimateSummary(file); !summary.empty()) out += "oomlint: " + file.path + ": " + summary + "\n";
    if (const std::string host = hostSummary(file); !host.empty()) out += "oomlint: " + file.path + ": " + host + "\n";
  }
  if (dropped > 0) {
    out += "oomlint: " + std::to_string(dropped) + " more finding" + (dropped == 1 ? "" : "s") +
           " not annotated (GitHub keeps " + std::to_string(kAnnotationsPerLevel) +
           " per level and step); --format text lists them all\n";
  }
  if (!report.internalError.empty()) out += "::error title=oomlint::" + escapeData(report.internalError) + "\n";
  return out;
}

}  // namespace oomlint
