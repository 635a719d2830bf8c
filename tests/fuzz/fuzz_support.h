// Shared by the libFuzzer targets (tests/fuzz/fuzz_*.cpp): every renderer over one report, a failed
// invariant as a crash libFuzzer records, and a small deterministic generator for derived choices.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "analyze.h"
#include "format/formatters.h"
#include "base/knowledge/knowledge.h"
#include "report/report.h"

// Undefined behaviour stops the run (the targets are built with it recoverable, so that the known bugs
// tests/fuzz/ubsan.supp lists can be let through); also when a target is run by hand on a crash file.
extern "C" const char* __ubsan_default_options() {
  return "halt_on_error=1:print_stacktrace=1:suppressions=" OOMLINT_FUZZ_UBSAN_SUPPRESSIONS;
}

namespace oomlint::fuzz {

// An invariant the code under test must keep: a violation is a finding, written as crash-* like any other.
inline void require(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz invariant violated: %s\n", what);
  std::abort();
}

// Every formatter over the report (text with and without colour).
inline void formatAll(const Report& report) {
  require(!formatJson(report).empty(), "formatJson returned nothing");
  (void)formatText(report, {});
  (void)formatText(report, TextStyle{true});
  (void)formatGcc(report);
  (void)formatGithub(report);
  (void)formatSarif(report);
  (void)formatJunit(report);
}

// What every report must satisfy: known rule codes, ranges inside the text, ordered, 1-based.
inline void checkRange(const Range& range, std::size_t size) {
  require(range.start.offset <= range.end.offset, "a range ends before it starts");
  require(range.end.offset <= size, "a range runs past the end of the text");
  require(range.start.line >= 1 && range.start.column >= 1 && range.end.line >= range.start.line,
          "a range has a position before line 1, column 1");
}

inline void checkReport(const Report& report) {
  require(report.internalError.empty(), "an analysis threw: an internal error (a bug in oomlint)");
  for (const FileReport& file : report.files) {
    const std::size_t size = file.source ? file.source->size() : 0;
    for (const Diagnostic& d : file.diagnostics) {
      require(static_cast<std::size_t>(d.code) < kRuleCount, "a diagnostic's code is not in the catalog");
      require(!d.message.empty(), "a diagnostic has no message");
      if (file.source) checkRange(d.range, size);
      if (d.fix && file.source) {
        for (const Edit& edit : d.fix->edits) checkRange(edit.range, size);
      }
    }
    for (const auto* plan : {&file.plan, &file.hostPlan}) {
      for (const PlanStep& step : *plan) {
        if (!file.source) continue;
        for (const Edit& edit : step.fix.edits) checkRange(edit.range, size);
      }
    }
    if (file.estimate && file.estimate->host) {
      const HostEstimate& host = *file.estimate->host;
      require(!host.phases.empty() && host.peakPhase < host.phases.size() && host.verdictPhase < host.phases.size(),
              "a host-RAM estimate without its phases");
      require(host.ramBytes.has_value() || host.logKilled || !host.verdict, "a host-RAM verdict without the RAM");
    }
  }
}

// `oomlint fix` on a readable config writes a config that still reads.
inline void checkFix(const Input& input, const AnalyzeOptions& options) {
  const FixResult fixed = fixConfig(input, options);
  if (fixed.before.unreadable || fixed.applied.empty()) return;
  const FileReport after = analyzeInput(Input{input.path, fixed.text}, options);
  require(!after.unreadable, "oomlint fix wrote a config that no longer reads");
}

// FNV-1a of the input: choices that depend on the bytes only, so a crash file replays exactly.
inline std::uint64_t hashOf(std::string_view bytes) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;
  return h;
}

// xorshift64*: the chunk sizes of the log target.
struct Rng {
  std::uint64_t state;
  explicit Rng(std::uint64_t seed) : state(seed | 1) {}
  std::uint64_t next() {
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 2685821657736338717ull;
  }
};

}  // namespace oomlint::fuzz
