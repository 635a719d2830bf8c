// `--format junit`: JUnit XML, which CI systems (GitLab, Jenkins, Azure Pipelines, test-report actions)
// show as a test report. One suite for the run, one test case per input file, one <failure> per finding
// at warning or above. Counts follow JUnit's meaning, which those consumers recompute from the cases:
// `tests` is the number of files, `failures` the files with findings at warning or above, `errors` the
// files that could not be checked (unparsable input, its findings as <error>) plus an internal error.
// Info findings do not fail a case: they are notes ("worth knowing") and go to <system-out> with the
// estimate, so a deprecation hint does not turn a CI dashboard red.
#include <cstdint>
#include <string>
#include <string_view>

#include "format/formatters.h"
#include "format/summary.h"

namespace oomlint {

namespace {

// XML 1.0's Char production: tab, LF, CR and everything from U+0020 but surrogates, U+FFFE and U+FFFF.
bool xmlChar(std::uint32_t cp) {
  return cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF) || (cp >= 0xE000 && cp <= 0xFFFD) ||
         (cp >= 0x10000 && cp <= 0x10FFFF);
}

constexpr std::uint32_t kMalformed = 0xFFFFFFFF;  // not a code point, so not an XML Char either

// The code point of UTF-8 text at `i` and its length in bytes; a malformed sequence is one byte long.
std::uint32_t decode(std::string_view s, std::size_t i, std::size_t* length) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char lead = byte(i);
  *length = 1;
  if (lead < 0x80) return lead;
  std::size_t extra = 0;
  std::uint32_t cp = 0, min = 0;
  if ((lead & 0xE0) == 0xC0) extra = 1, cp = lead & 0x1Fu, min = 0x80;
  else if ((lead & 0xF0) == 0xE0) extra = 2, cp = lead & 0x0Fu, min = 0x800;
  else if ((lead & 0xF8) == 0xF0) extra = 3, cp = lead & 0x07u, min = 0x10000;
  else return kMalformed;
  if (i + extra >= s.size()) return kMalformed;
  for (std::size_t k = 1; k <= extra; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return kMalformed;
    cp = (cp << 6) | (byte(i + k) & 0x3Fu);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return kMalformed;  // overlong, surrogate
  *length = extra + 1;
  return cp;
}

// Escapes text for XML content (`attribute`: for a double-quoted attribute value). What XML 1.0 cannot
// carry at all (most C0 controls, which messages can echo from the user's keys) and malformed UTF-8
// become U+FFFD, so the report stays well-formed and still shows where something was. In attributes,
// tab and line breaks are written as references: a parser would otherwise normalise them to spaces.
std::string escape(std::string_view text, bool attribute) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0, length = 1; i < text.size(); i += length) {
    const std::uint32_t cp = decode(text, i, &length);
    if (!xmlChar(cp)) {
      out += "\xEF\xBF\xBD";  // U+FFFD
      continue;
    }
    switch (cp) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;    // also keeps "]]>" out of content
      case '\r': out += "&#13;"; break;  // a raw CR would be read as a line break, then dropped
      case '"': out += attribute ? "&quot;" : "\""; break;
      case '\'': out += attribute ? "&apos;" : "'"; break;
      case '\t': out += attribute ? "&#9;" : "\t"; break;
      case '\n': out += attribute ? "&#10;" : "\n"; break;
      default: out.append(text.substr(i, length));
    }
  }
  return out;
}

std::string attr(std::string_view name, std::string_view value) {
  return " " + std::string(name) + "=\"" + escape(value, true) + "\"";
}

// `path:line:col: severity: message [CODE name]`, as --format gcc prints it.
std::string findingLine(const FileReport& file, const Diagnostic& d) {
  return file.path + ":" + std::to_string(d.range.start.line) + ":" + std::to_string(d.range.start.column) + ": " +
         std::string(toString(d.severity)) + ": " + d.message + " [" + ruleLabel(d.code) + "]";
}

bool fails(const Diagnostic& d) { return d.severity >= Severity::Warning; }

struct Counts {
  int tests = 0;
  int failures = 0;
  int errors = 0;
};

std::string testCase(const FileReport& file, Counts& counts) {
  ++counts.tests;
  std::string body;
  std::string notes;
  bool failed = false;
  for (const auto& d : file.diagnostics) {
    if (!fails(d)) {
      notes += findingLine(file, d) + "\n";
      continue;
    }
    failed = true;
    // An unparsable file was not checked: that is an error of the test, not a failed assertion.
    const char* element = file.unreadable ? "error" : "failure";
    body += "      <" + std::string(element) + attr("type", toString(d.code)) + attr("message", d.message) + ">" +
            escape(findingLine(file, d), false) + "</" + element + ">\n";
  }
  if (failed) ++(file.unreadable ? counts.errors : counts.failures);
  if (const std::string summary = estimateSummary(file); !summary.empty()) notes += file.path + ": " + summary + "\n";
  if (const std::string host = hostSummary(file); !host.empty()) notes += file.path + ": " + host + "\n";
  if (!notes.empty()) body += "      <system-out>" + escape(notes, false) + "</system-out>\n";
  const std::string open = "    <testcase" + attr("classname", "oomlint") + attr("name", file.path);
  return body.empty() ? open + "/>\n" : open + ">\n" + body + "    </testcase>\n";
}

}  // namespace

std::string formatJunit(const Report& report) {
  Counts counts;
  std::string cases;
  for (const auto& file : report.files) cases += testCase(file, counts);
  if (!report.internalError.empty()) {
    // oomlint itself failed: a case of its own, so the report says so even with no files in it.
    ++counts.tests;
    ++counts.errors;
    cases += "    <testcase" + attr("classname", "oomlint") + attr("name", "oomlint") + ">\n      <error" +
             attr("type", "internal") + attr("message", report.internalError) + ">" + escape(report.internalError, false) +
             "</error>\n    </testcase>\n";
  }
  const std::string totals = attr("tests", std::to_string(counts.tests)) + attr("failures", std::to_string(counts.failures)) +
                             attr("errors", std::to_string(counts.errors));
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites" + attr("name", "oomlint") + totals + ">\n  <testsuite" +
         attr("name", "oomlint") + totals + attr("skipped", "0") + ">\n" + cases + "  </testsuite>\n</testsuites>\n";
}

}  // namespace oomlint
