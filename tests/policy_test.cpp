// The project file's parsing, globbing and merging (the CLI tests cover finding it on disk).
#include <catch2/catch.hpp>

#include "policy/policy.h"

using namespace oomlint;

TEST_CASE("globs: * and ? stay in a segment, ** spans segments") {
  CHECK(globMatch("*.yaml", "job.yaml"));
  CHECK_FALSE(globMatch("*.yaml", "video/job.yaml"));
  CHECK(globMatch("video/*.yaml", "video/job.yaml"));
  CHECK_FALSE(globMatch("video/*.yaml", "video/wan/job.yaml"));
  CHECK(globMatch("video/**/*.yaml", "video/job.yaml"));  // `**/` may match no folder
  CHECK(globMatch("video/**/*.yaml", "video/wan/2.1/job.yaml"));
  CHECK(globMatch("**", "a/b/c"));
  CHECK(globMatch("**/job.yaml", "job.yaml"));
  CHECK(globMatch("j?b.yaml", "job.yaml"));
  CHECK_FALSE(globMatch("j?b.yaml", "j/b.yaml"));
  CHECK_FALSE(globMatch("video/**", "image/video/x"));
  CHECK(globMatch("a*b*c", "aXXbYYc"));
  CHECK_FALSE(globMatch("a*b*c", "aXXbYY"));
  CHECK(globMatch("", ""));
  CHECK_FALSE(globMatch("", "x"));
}

TEST_CASE("the project file: settings, overrides merged in order, problems located") {
  auto parsed = parseProjectConfig(
      "gpu: RTX 3090\nfail_on: never\ndisable: [OL206, unknown-key]\nseverity: {OL401: error}\n"
      "ram: 32\noverrides:\n  - paths: [\"video/**\"]\n    vram: 48\n    ram: 128\n    disable: OL405\n"
      "  - paths: video/wan/*\n    severity: {OL401: info}\n    allow_suppressions: false\n");
  REQUIRE(parsed.problems.empty());
  const Policy base = parsed.config.policyFor("image/job.yaml");
  CHECK(base.gpu == "RTX 3090");
  CHECK(base.ramGib == 32);
  CHECK(base.failOn.has_value());
  CHECK_FALSE(base.failOn->has_value());  // never
  CHECK(base.disabled == std::set<std::string>{"OL201", "OL206"});
  CHECK(base.severity.at("OL401") == Severity::Error);
  CHECK(base.suppressionsAllowed());

  const Policy wan = parsed.config.policyFor("video/wan/job.yaml");
  CHECK_FALSE(wan.gpu.has_value());  // vram replaces the card
  CHECK(wan.vramGib == 48);
  CHECK(wan.ramGib == 128);  // the machine of this path's jobs
  CHECK(wan.disabled.contains("OL405"));
  CHECK(wan.disabled.contains("OL206"));
  CHECK(wan.severity.at("OL401") == Severity::Info);
  CHECK_FALSE(wan.suppressionsAllowed());

  auto broken = parseProjectConfig("fail_on: sometimes\ndisable: [OL999]\noverrides:\n  - gpu: x\n");
  REQUIRE(broken.problems.size() == 3);
  CHECK(parseProjectConfig("ram: lots\n").problems.front().message == "`ram` must be a positive size in GiB");
  CHECK(broken.problems[0].range.start.line == 1);
  CHECK(broken.problems[1].message.find("OL999") != std::string::npos);
  CHECK(broken.problems[2].message == "an override needs `paths`");

  // Both: the named card with the memory given (an APU's carve-out).
  const Policy apu = parseProjectConfig("gpu: radeon 8060s\nvram: 64\n").config.policyFor("job.yaml");
  CHECK(apu.gpu == "radeon 8060s");
  CHECK(apu.vramGib == 64);
  CHECK(parseProjectConfig("gpu: radeon 8060s\nvram: -2\n").problems.front().message == "`vram` must be a positive size in GiB");

  CHECK(parseProjectConfig("").problems.empty());
  CHECK(parseProjectConfig("[1, 2]").problems.size() == 1);
  CHECK(parseProjectConfig("gpu: [unclosed").problems.size() >= 1);
}
