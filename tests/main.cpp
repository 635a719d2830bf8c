// The test runner: Catch2's, except for the cases tagged [shared], which read ../shared (the corpus and
// calibration set beside the clone). Where that folder is missing they cannot run, and must not pass:
// - a run that selects only [shared] cases (ctest's `shared` test) exits 77, which CTest reports as skipped;
// - a run with no test spec runs everything else and says on stderr that the [shared] cases were skipped;
// - a run that names [shared] cases among others runs them, and they fail (test::requireShared()).
// OOMLINT_SHARED_DIR in the environment overrides the folder (to check the skip: point it at a missing path).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <algorithm>
#include <iostream>

#include "test_support.h"

namespace {

constexpr int kSkipped = 77;  // CTest's SKIP_RETURN_CODE for the `shared` test (tests/CMakeLists.txt)

bool isShared(const Catch::TestCase& test) {
  return std::find(test.lcaseTags.begin(), test.lcaseTags.end(), "shared") != test.lcaseTags.end();
}

}  // namespace

int main(int argc, char* argv[]) {
  Catch::Session session;
  if (const int rc = session.applyCommandLine(argc, argv); rc != 0) return rc;
  if (oomlint::test::haveShared()) return session.run();
  const std::string why = oomlint::test::sharedDir().string() + " is missing";
  Catch::ConfigData data = session.configData();
  if (data.testsOrTags.empty()) {
    data.testsOrTags = {"~[shared]~[.]"};  // hidden cases stay hidden
    session.useConfigData(data);
    std::cerr << "SKIPPED: the test cases tagged [shared]: " << why << "\n";
    return session.run();
  }
  const auto& config = session.config();
  const auto selected = Catch::filterTests(Catch::getAllTestCasesSorted(config), config.testSpec(), config);
  if (!selected.empty() && std::all_of(selected.begin(), selected.end(), isShared) && !config.listTestNamesOnly() &&
      !config.listTests() && !config.listTags()) {
    std::cout << "SKIPPED: " << selected.size() << " test cases tagged [shared]: " << why << "\n";
    return kSkipped;
  }
  return session.run();
}
