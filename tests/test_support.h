// Shared helpers for the unit tests.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>

#include <catch2/catch.hpp>

#include "analyze.h"
#include "common/read_file.h"
#include "base/document/reader.h"

namespace oomlint {
// Rule ids print as their code in test messages and Catch2's expansions.
inline std::ostream& operator<<(std::ostream& out, RuleId id) { return out << toString(id); }
}  // namespace oomlint

namespace oomlint::test {

inline std::string readFile(const std::filesystem::path& path) { return readWholeFile(path); }

inline std::filesystem::path sourceDir() { return OOMLINT_SOURCE_DIR; }
// ../shared beside the clone (the corpus and the calibration set); OOMLINT_SHARED_DIR in the environment
// overrides it. The test cases that read it are tagged [shared] and begin with requireShared() (main.cpp
// reports them skipped where the folder is missing).
inline std::filesystem::path sharedDir() {
  const char* overridden = std::getenv("OOMLINT_SHARED_DIR");
  return overridden && *overridden ? std::filesystem::path(overridden) : std::filesystem::path(OOMLINT_SHARED_DIR);
}
inline bool haveShared() { return std::filesystem::is_directory(sharedDir() / "corpus"); }

// An estimate's phase by its id ("train_step"); fails the test when the estimate has none.
inline const PhaseEstimate& phase(const Estimate& e, std::string_view name) {
  for (const auto& p : e.phases) {
    if (toString(p.phase) == name) return p;
  }
  FAIL("no phase " << name);
  return e.phases.front();
}

// The bytes of a phase's components of that name (0 when it has none).
inline double component(const PhaseEstimate& p, std::string_view name) {
  double bytes = 0;
  for (const auto& c : p.components) {
    if (c.name == name) bytes += c.bytes;
  }
  return bytes;
}

// The phase's range reason whose text contains `text`, or nullptr when it has none.
inline const RangeReason* rangeReason(const PhaseEstimate& p, std::string_view text) {
  for (const auto& r : p.range) {
    if (r.why.find(text) != std::string::npos) return &r;
  }
  return nullptr;
}

// At the start of a [shared] case: fails (never passes silently) when the folder is missing.
#define OOMLINT_REQUIRE_SHARED()                                                                                \
  do {                                                                                                          \
    INFO(::oomlint::test::sharedDir().string() << " is missing: run the [shared] cases alone (ctest -R shared), " \
                                                  "which reports them skipped");                                \
    REQUIRE(::oomlint::test::haveShared());                                                                     \
  } while (false)

inline FileReport check(const std::string& text) { return analyzeInput(Input{"test.yaml", text}); }

inline bool hasCode(const FileReport& report, std::string_view code) {
  for (const auto& d : report.diagnostics) {
    if (d.code == code) return true;
  }
  return false;
}

}  // namespace oomlint::test
