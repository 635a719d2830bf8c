// The entry point's error contract: an input that runs the machine out of memory is the input's limit
// (OL103, exit 2); any other exception out of an analysis is a bug in oomlint (exit 3), said so.
#include <catch2/catch.hpp>

#include <new>
#include <stdexcept>

#include "analyze.h"
#include "format/formatters.h"
#include "test_support.h"

using namespace oomlint;

TEST_CASE("an exception out of an analysis is an internal error: exit 3, named a bug in oomlint") {
  const Input input{"train.yaml", "job: extension\n"};
  FileReport file = analyzeGuarded(input, []() -> FileReport { throw std::out_of_range("map::at"); });
  CHECK(file.unreadable);
  CHECK(file.diagnostics.empty());
  CHECK_THAT(file.internalError, Catch::Contains("map::at") && Catch::Contains("bug in oomlint"));

  Report report;
  report.add(std::move(file));
  CHECK(exitCode(report, Severity::Error) == 3);
  CHECK(exitCode(report, std::nullopt) == 3);
  CHECK_THAT(report.internalError, Catch::StartsWith("train.yaml: ") && Catch::Contains("bug in oomlint"));
  CHECK_THAT(formatText(report, TextStyle{false}), Catch::Contains("internal error") && Catch::Contains("bug in oomlint"));
  CHECK_THAT(formatJson(report), Catch::Contains("\"error\""));
}

TEST_CASE("running out of memory on an input is its input limit: OL103, exit 2") {
  const Input input{"huge.yaml", "job: extension\n"};
  FileReport file = analyzeGuarded(input, []() -> FileReport { throw std::bad_alloc(); });
  CHECK(file.unreadable);
  CHECK(file.internalError.empty());
  REQUIRE(file.diagnostics.size() == 1);
  CHECK(file.diagnostics.front().code == "OL103");
  CHECK_THAT(file.diagnostics.front().message, Catch::StartsWith("input limit"));

  Report report;
  report.add(std::move(file));
  CHECK(report.internalError.empty());
  CHECK(exitCode(report, Severity::Error) == 2);
}

TEST_CASE("an analysis that returns is passed through untouched") {
  const Input input{"a.yaml", "x"};
  FileReport file = analyzeGuarded(input, [] {
    FileReport ok;
    ok.path = "a.yaml";
    ok.kind = InputKind::Log;
    return ok;
  });
  CHECK(file.kind == InputKind::Log);
  CHECK_FALSE(file.unreadable);
  CHECK(file.internalError.empty());
}

TEST_CASE("a plain config through analyze() is no internal error") {
  Report report = analyze({Input{"ok.yaml", "job: extension\nconfig:\n  name: x\n  process: []\n"}});
  REQUIRE(report.files.size() == 1);
  CHECK(report.internalError.empty());
  CHECK(report.files.front().internalError.empty());
}

TEST_CASE("a config with its log: the log's report first, then the config's, advised by the log") {
  const std::string config = test::readFile(test::sourceDir() / "docs/examples/flux-lora-24gb.yaml");
  const std::string log = "Traceback (most recent call last):\n  File \"run.py\", line 90, in <module>\n"
                          "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total "
                          "capacity of 23.54 GiB of which 1.20 GiB is free.\n";
  const Report report = analyzeWithLog(Input{"job.yaml", config}, Input{"run.log", log});
  REQUIRE(report.files.size() == 2);
  CHECK(report.files[0].kind == InputKind::Log);
  CHECK(report.files[0].log->oom);
  CHECK(report.files[1].kind == InputKind::AiToolkitJob);
  REQUIRE(report.files[1].log);
  CHECK(report.files[1].log->numbers.totalCapacity == report.files[0].log->numbers.totalCapacity);
  CHECK(report.files[1].gpuGiven);  // the card in the log
}

// Wan's loader (wan21.py) quantizes umT5 with model.qtype, its accuracy-recovery adapter left to the transformer:
// qtype_te is not read. HiDream's quantizes its encoders with qtype_te.
TEST_CASE("a loader that quantizes the text encoder with model.qtype ignores qtype_te") {
  const auto teBytes = [](const std::string& arch, const std::string& model) {
    const std::string config = "job: extension\nconfig:\n  name: te\n  process:\n    - type: sd_trainer\n"
                               "      network: {type: lora, linear: 16, linear_alpha: 16}\n"
                               "      datasets: [{folder_path: /d, resolution: [512], cache_latents_to_disk: true}]\n"
                               "      train: {batch_size: 1, steps: 10, dtype: bf16, gradient_checkpointing: true}\n"
                               "      model: {arch: " + arch + ", name_or_path: " + model + ", quantize: true, quantize_te: true,\n"
                               "              qtype: \"uint4|ostris/accuracy_recovery_adapters/some_adapter.safetensors\", qtype_te: qfloat8}\n";
    const FileReport report = test::check(config);
    REQUIRE(report.estimate);
    for (const auto& p : report.estimate->phases) {
      if (p.phase == Phase::TrainStep) return test::component(p, "text encoder weights");
    }
    FAIL("no train_step");
    return 0.0;
  };
  const double wan = teBytes("wan21", "Wan-AI/Wan2.1-T2V-14B-Diffusers");
  const double hidream = teBytes("hidream", "HiDream-ai/HiDream-I1-Full");
  const MemoryModel& m = knowledge().memory;
  const double umt5 = knowledge().architectures.find("wan21")->textEncoderParams();
  // umT5 at uint4 (its embedding table in bf16), well under the qfloat8 that qtype_te names.
  CHECK(wan < umt5 * m.format("qfloat8")->bytesPerParam);
  CHECK(wan > umt5 * m.format("uint4")->bytesPerParam);
  // HiDream's Llama and T5 at qfloat8, its CLIPs in bf16: more than a byte a parameter.
  CHECK(hidream > knowledge().architectures.find("hidream")->textEncoderParams());
}
