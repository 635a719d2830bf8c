// The seed thread's claims (tests/webui-seed/claims.yaml, labelled before oomlint ran on them): every
// claim the estimate gets right stays right, and each one it gets wrong is pinned at today's verdict with
// its reason (tests/webui-seed/open-gaps.yaml), so a change that moves either shows here.
#include <catch2/catch.hpp>

#include <map>
#include <sstream>

#include "test_support.h"

using namespace oomlint;

namespace {

const Node* field(const Node* map, std::string_view key) {
  const Node* n = map ? map->find(key) : nullptr;
  return n ? n->resolved() : nullptr;
}

std::string text(const Node* map, std::string_view key) {
  const Node* n = field(map, key);
  return n && n->isScalar() ? n->text : std::string();
}

const PhaseEstimate* findPhase(const Estimate& e, Phase name) {
  for (const auto& p : e.phases) {
    if (p.phase == name) return &p;
  }
  return nullptr;
}

// What the estimate says about a claim, in the claim's own terms (its `expect` vocabulary).
std::string outcome(const std::string& expect, const std::string& profile, const std::string& gpu) {
  AnalyzeOptions options;
  options.gpu = gpu;
  const FileReport r = analyzeInput(Input{"claim.yaml", profile}, options);
  if (!r.estimate) return "no estimate";
  const Estimate& e = *r.estimate;
  if (expect == "fits" || expect == "oom") return std::string(toString(e.verdict));
  if (expect == "one_of_te_unet_vae") {
    for (const auto& p : e.phases) {
      int resident = 0;
      for (const char* model : {"text encoder weights", "UNet weights", "VAE weights"}) resident += test::component(p, model) > 0;
      if (resident > 1) return std::string(toString(p.phase)) + " holds " + std::to_string(resident);
    }
    return expect;
  }
  if (expect == "unet_one_module") {
    std::string plain;  // the same profile without its flags: the whole UNet
    std::istringstream lines(profile);
    for (std::string line; std::getline(lines, line);) {
      if (line.find("args:") == std::string::npos) plain += line + "\n";
    }
    const FileReport whole = analyzeInput(Input{"claim.yaml", plain}, options);
    const PhaseEstimate* part = findPhase(e, Phase::Denoise);
    const PhaseEstimate* all = whole.estimate ? findPhase(*whole.estimate, Phase::Denoise) : nullptr;
    if (part == nullptr || all == nullptr) return "no denoise phase";
    const double held = test::component(*part, "UNet weights");
    return held > 0 && held < test::component(*all, "UNet weights") ? expect : "the whole UNet";
  }
  return "unknown expectation " + expect;
}

}  // namespace

TEST_CASE("the seed thread's claims: each as labelled, or pinned as an open gap") {
  const auto dir = test::sourceDir() / "tests/webui-seed";
  const auto claims = readDocument(test::readFile(dir / "claims.yaml"));
  const auto gaps = readDocument(test::readFile(dir / "open-gaps.yaml"));
  REQUIRE(claims->problems().empty());
  REQUIRE(gaps->problems().empty());  // an unreadable gap list would pin nothing and fail every gap as a miss
  REQUIRE(claims->root() != nullptr);
  const std::string gpu = text(claims->root(), "gpu");
  std::map<std::string, std::string> pinned;  // id → today's outcome
  if (const Node* list = field(gaps->root(), "gaps"); list && list->isSequence()) {
    for (const Node* g : list->items) pinned[text(g->resolved(), "id")] = text(g->resolved(), "today");
  }
  const Node* list = field(claims->root(), "claims");
  REQUIRE(list != nullptr);
  REQUIRE(list->isSequence());
  for (const Node* item : list->items) {
    const Node* c = item->resolved();
    const std::string id = text(c, "id"), expect = text(c, "expect");
    INFO(id << ": " << text(c, "quote"));
    const std::string said = outcome(expect, text(c, "profile"), gpu);
    if (const auto gap = pinned.find(id); gap != pinned.end()) {
      CHECK(said == gap->second);  // an open gap: moved? then update open-gaps.yaml (or drop the entry)
      CHECK(said != expect);       // a gap that closed is no longer a gap
      pinned.erase(gap);
    } else {
      CHECK(said == expect);
    }
  }
  CHECK(pinned.empty());  // every gap names a claim
}
