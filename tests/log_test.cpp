// The log scanner on inline logs: message formats, phases, steps, and hostile input.
#include <catch2/catch.hpp>

#include <map>
#include <random>

#include "base/document/reader.h"
#include "base/knowledge/knowledge.h"
#include "base/knowledge/load/log_markers.h"
#include "format/formatters.h"
#include "systems/logs/log_analysis.h"
#include "systems/logs/progress_bar.h"
#include "test_support.h"

#include <filesystem>

using namespace oomlint;

namespace {
constexpr std::int64_t MiB = 1 << 20;
constexpr std::int64_t GiB = 1ll << 30;
std::int64_t inGiB(double v) { return static_cast<std::int64_t>(std::llround(v * GiB)); }
std::int64_t inMiB(double v) { return static_cast<std::int64_t>(std::llround(v * MiB)); }
}  // namespace

TEST_CASE("every PyTorch allocator message era parses to exact bytes") {
  SECTION("format A/B: (GPU 0; total; already allocated; free; reserved in total)") {
    const LogAnalysis a = analyzeLog(
        "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 2.00 GiB total capacity; 1.71 GiB already "
        "allocated; 0 bytes free; 1.75 GiB reserved in total by PyTorch) If reserved memory is >> allocated memory try "
        "setting max_split_size_mb\n");
    CHECK(a.oom);
    CHECK(a.kind == OomKind::CudaAlloc);
    CHECK(a.numbers.triedToAllocate == inMiB(20));
    CHECK(a.numbers.totalCapacity == inGiB(2.00));
    CHECK(a.numbers.allocatedByPytorch == inGiB(1.71));
    CHECK(a.numbers.free == 0);
    CHECK(a.numbers.reservedUnallocated == inGiB(1.75) - inGiB(1.71));
  }
  SECTION("format C: the 'capacty' typo of torch 2.1") {
    const LogAnalysis a = analyzeLog(
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 27.12 GiB. GPU 0 has a total capacty of 11.99 "
        "GiB of which 0 bytes is free. Of the allocated memory 16.16 GiB is allocated by PyTorch, and 144.59 MiB is "
        "reserved by PyTorch but unallocated.\n");
    CHECK(a.numbers.triedToAllocate == inGiB(27.12));
    CHECK(a.numbers.totalCapacity == inGiB(11.99));
    CHECK(a.numbers.free == 0);
    CHECK(a.numbers.allocatedByPytorch == inGiB(16.16));
    CHECK(a.numbers.reservedUnallocated == inMiB(144.59));
    CHECK_FALSE(a.numbers.processInUse.has_value());
  }
  SECTION("format E with another process and this process's total") {
    const LogAnalysis a = analyzeLog(
        "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 224.00 MiB. GPU  has a total capacity of "
        "44.34 GiB of which 160.81 MiB is free. Process 47694 has 30.17 GiB memory in use. Including non-PyTorch memory, "
        "this process has 14.00 GiB memory in use. Of the allocated memory 12.50 GiB is allocated by PyTorch, with 1.00 "
        "GiB allocated in private pools (e.g., CUDA Graphs), and 512.00 MiB is reserved by PyTorch but unallocated.\n");
    CHECK(a.numbers.totalCapacity == inGiB(44.34));
    CHECK(a.numbers.free == inMiB(160.81));
    CHECK(a.numbers.processInUse == inGiB(14.00));
    CHECK(a.numbers.allocatedByPytorch == inGiB(12.50));
    CHECK(a.numbers.reservedUnallocated == inMiB(512));
    CHECK(a.gpuStateSuspect);  // another process holds 30 GiB
  }
  SECTION("other allocators and failures") {
    CHECK(analyzeLog("RuntimeError: CUDA error: out of memory\n").kind == OomKind::CudaError);
    CHECK(analyzeLog("RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`\n").kind ==
          OomKind::CublasAlloc);
    CHECK(analyzeLog("torch.OutOfMemoryError: HIP out of memory. Tried to allocate 4.50 GiB\n").kind == OomKind::HipAlloc);
    const LogAnalysis mps = analyzeLog(
        "RuntimeError: MPS backend out of memory (MPS allocated: 5.05 GB, other allocations: 2.29 GB, max allowed: 6.77 "
        "GB). Tried to allocate 1024.00 MB on private pool.\n");
    CHECK(mps.kind == OomKind::MpsAlloc);
    CHECK(mps.numbers.totalCapacity == inGiB(6.77));
    CHECK(mps.numbers.triedToAllocate == inMiB(1024));
    CHECK(analyzeLog("[123.4] Out of memory: Killed process 4121 (python)\n").kind == OomKind::HostRam);
    CHECK(analyzeLog("step 3\nKilled\n").kind == OomKind::HostRam);
    const LogAnalysis comfy = analyzeLog(
        "torch.OutOfMemoryError: Allocation on device 0 would exceed allowed memory. (out of memory)\n"
        "Currently allocated     : 22.45 GiB\nRequested               : 192.00 MiB\nDevice limit            : 23.69 GiB\n"
        "Free (according to CUDA): 10.94 MiB\n");
    CHECK(comfy.kind == OomKind::ComfyAlloc);
    CHECK(comfy.numbers.totalCapacity == inGiB(23.69));
    CHECK(comfy.numbers.free == inMiB(10.94));
  }
}

TEST_CASE("AI Toolkit's phases, the step from its bar, and an OOM hidden behind a later error") {
  const std::string log =
      "Running 1 job\nLoading Flux model\nQuantizing Transformer\nGenerating baseline samples before training\n"
      "my_lora:   0%|          | 0/2000 [00:00<?, ?it/s]\r"
      "my_lora:   0%|          | 4/2000 [00:10<1:20:00, 2.40s/it, lr: 1.0e-04 loss: 4.1e-01]\r\n"
      "\n################################################\n# OOM during training step, skipping batch 1/3 #\n"
      "################################################\n\n"
      "Error running job: local variable 'loss_dict' referenced before assignment\n";
  const LogAnalysis a = analyzeLog(log);
  CHECK(a.oom);
  CHECK(a.kind == OomKind::CudaAlloc);
  CHECK(a.phase == Phase::TrainStep);
  CHECK(a.step == 5);
  CHECK(a.skippedBatches == 1);
  CHECK_FALSE(a.continuedAfterOom);
  CHECK(a.failure.empty());  // the later error is the OOM's consequence, not another failure

  CHECK(analyzeLog("Loading Flux model\nQuantizing Transformer\ntorch.OutOfMemoryError: CUDA out of memory. Tried to "
                   "allocate 72.00 MiB.\n").phase == Phase::Quantize);
  CHECK(analyzeLog("Running 1 job\nGenerating baseline samples before training\ntorch.OutOfMemoryError: CUDA out of "
                   "memory.\n").phase == Phase::BaselineSample);
  const LogAnalysis nan = analyzeLog("Running 1 job\nValueError: NaN loss detected\n");
  CHECK_FALSE(nan.oom);
  CHECK(nan.phase == Phase::None);
  CHECK_FALSE(nan.failure.empty());
  // A save marker cut at its end announces no readable step (it threw std::out_of_range: exit 3).
  const LogAnalysis cut = analyzeLog("Running 1 job\nSaving at step\ntorch.OutOfMemoryError: CUDA out of memory.\n");
  CHECK(cut.phase == Phase::Save);
  CHECK(cut.step == 0);
}

TEST_CASE("the scanner gives the same answer whatever the chunking, and survives junk") {
  const std::string log =
      "Running 1 job\r\nmy_lora:  10%|#         | 199/2000 [05:00<45:00,  1.50s/it, lr: 1.0e-04]\r\n"
      "\x1b[31mtorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total capacity of "
      "23.55 GiB of which 10.00 MiB is free. Of the allocated memory 20.00 GiB is allocated by PyTorch, and 1.00 GiB is "
      "reserved by PyTorch but unallocated.\x1b[0m\r\n";
  const LogAnalysis whole = analyzeLog(log);
  CHECK(whole.step == 200);
  CHECK(whole.numbers.totalCapacity == inGiB(23.55));
  for (std::size_t chunk : {1u, 2u, 7u, 64u}) {
    LogScanner scanner(*knowledge().logs);
    for (std::size_t i = 0; i < log.size(); i += chunk) scanner.feed(std::string_view(log).substr(i, chunk));
    const LogAnalysis a = scanner.finish();
    INFO("chunk " << chunk);
    CHECK(a.step == whole.step);
    CHECK(a.numbers.totalCapacity == whole.numbers.totalCapacity);
    CHECK(a.numbers.reservedUnallocated == whole.numbers.reservedUnallocated);
    CHECK(a.lines == whole.lines);
  }
  // Binary junk, invalid UTF-8, a 1 MiB line and a cut-off message: an answer, never a crash.
  std::mt19937 random(7);
  std::string junk(1 << 20, '\0');
  for (auto& c : junk) c = static_cast<char>(random());
  const LogAnalysis noise = analyzeLog(junk);
  CHECK(noise.bytes == junk.size());
  const LogAnalysis cut = analyzeLog(std::string(300000, 'x') + "\n\xff\xfe torch.OutOfMemoryError: CUDA out of memory. "
                                     "Tried to allocate 2.00 GiB. GPU 0 has a total capac");
  CHECK(cut.oom);
  CHECK(cut.numbers.triedToAllocate == inGiB(2));
  CHECK_FALSE(cut.numbers.totalCapacity.has_value());
}

// Inputs a fuzzer once crashed on (tests/fixtures/fuzz/): each must give a report, under the sanitizers too.
TEST_CASE("fuzzer regressions") {
  for (const auto& entry : std::filesystem::directory_iterator(test::sourceDir() / "tests/fixtures/fuzz")) {
    INFO(entry.path().filename().string());
    const std::string text = test::readFile(entry.path());
    AnalyzeOptions options;
    options.vramGib = 24;
    const Report report = analyze({Input{"fuzz", text}}, options);
    CHECK(report.files.size() == 1);
    CHECK_FALSE(formatJson(report).empty());
  }
}

namespace {
LogAnalysis lineByLine(std::string_view text) {
  LogScanner scanner(*knowledge().logs, LogScanner::Redraws::LineByLine);
  scanner.feed(text);
  return scanner.finish();
}

// tqdm's redraws of one bar of `total` steps, from step `from` to `to`: the percentage is padded to
// three places, the step is not.
std::string redraws(std::string_view description, long from, long to, long total, std::string_view end = "\r") {
  std::string out;
  for (long step = from; step <= to; ++step) {
    const std::string percent = std::to_string(step * 100 / total);
    out += std::string(description) + ": " + std::string(3 - percent.size(), ' ') + percent + "%|###   | ";
    out += std::to_string(step) + "/" + std::to_string(total) + " [00:10<00:20,  1.50s/it, loss: 0." +
           std::to_string(step % 10) + "]" + std::string(end);
  }
  return out;
}
}  // namespace

TEST_CASE("progress-bar redraws: the shortcut gives what parsing every line gives") {
  const std::string oom = "\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB.\n";
  const std::vector<std::pair<std::string, std::string>> logs = {
      {"one training bar", "Running 1 job\n" + redraws("my_lora", 1, 80, 120) + oom},
      // Digits in the description: "epoch 9" and "epoch 10" are different bars.
      {"numbered descriptions",
       redraws("epoch 9", 1, 50, 50) + redraws("epoch 10", 1, 50, 50) + redraws("epoch 11", 1, 9, 50) + oom},
      // The same width, another description: the kind must be looked up again.
      {"a sampling bar after a training bar", redraws("my_lora", 1, 99, 99) + redraws("Sampling", 1, 40, 99) + oom},
      // A skipped batch, then the bar goes on: "continued after an OOM" is read from the redraws' steps.
      {"a skipped batch", "Running 1 job\n" + redraws("my_lora", 1, 40, 90) +
                              "\nOOM during training step, skipping batch 1/3\n" + redraws("my_lora", 1, 70, 90) + oom},
      // A bar that restarts: its steps are not monotonic.
      {"a restarted bar", redraws("my_lora", 1, 60, 60) + redraws("my_lora", 1, 30, 60) + oom},
      // Unnamed bars (a generation tool's sampler) read their percentage: never shortcut.
      {"an unnamed bar", "got prompt\n" + redraws("", 1, 20, 20) + "\nRan out of memory when regular VAE decoding\n"},
      {"coloured redraws", "\x1b[32m" + redraws("my_lora", 1, 30, 60, "\x1b[0m\r") + oom},
      {"CRLF lines", redraws("my_lora", 1, 30, 60, "\r\n") + oom},
      {"redraws glued to an error", redraws("my_lora", 1, 30, 60) + "my_lora:  10%|#  | 3/30 [00:01<00:02]Killed\n"},
      {"ComfyUI's table between redraws", redraws("Sampling", 1, 5, 20) +
                                               "\nAllocation on device 0 would exceed allowed memory. (out of memory)\n" +
                                               redraws("Requested", 1, 12, 20) + "\nDevice limit : 23.99 GiB\n"},
  };
  for (const auto& [name, text] : logs) {
    INFO(name);
    const LogAnalysis shortcut = analyzeLog(text);
    const LogAnalysis reference = lineByLine(text);
    CHECK(shortcut == reference);
    CHECK(shortcut.lines == reference.lines);
    CHECK(shortcut.step == reference.step);
    CHECK(shortcut.continuedAfterOom == reference.continuedAfterOom);
    CHECK(shortcut.phase == reference.phase);
    // Chunk edges cut redraws and their breaks: a redraw known by its length must not be taken across one.
    for (const std::size_t chunk : {1u, 7u, 97u, 4096u}) {
      INFO("chunk " << chunk);
      LogScanner scanner(*knowledge().logs);
      for (std::size_t i = 0; i < text.size(); i += chunk) scanner.feed(std::string_view(text).substr(i, chunk));
      CHECK(scanner.finish() == reference);
    }
  }
  const LogAnalysis skipped = analyzeLog(logs[3].second);
  CHECK(skipped.continuedAfterOom);
  CHECK(skipped.step == 71);
  CHECK(analyzeLog(logs[4].second).step == 31);
  CHECK(analyzeLog(logs[0].second).step == 81);
  CHECK(analyzeLog(logs[0].second).oomLine == 82);
}

TEST_CASE("a redraw is told from another line byte for byte, at every length and fixed prefix") {
  // The byte-by-byte definition the wide comparison (sixteen or eight bytes at a time) must agree with.
  const auto reference = [](std::string_view drawn, std::string_view line, std::size_t fixed) {
    if (drawn.size() != line.size()) return false;
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (drawn[i] != line[i] && (i < fixed || !isAsciiDigit(drawn[i]) || !isAsciiDigit(line[i]))) return false;
    }
    return true;
  };
  std::mt19937 random(11);
  const std::string alphabet = "0123456789/|#: a\r\xe2\x96";
  int redraws = 0;
  for (std::size_t n = 0; n <= 70; ++n) {
    for (int trial = 0; trial < 200; ++trial) {
      std::string drawn(n, ' ');
      for (auto& c : drawn) c = alphabet[random() % alphabet.size()];
      std::string line = drawn;
      for (int edits = static_cast<int>(random() % 3); edits > 0 && n > 0; --edits) {
        line[random() % n] = alphabet[random() % alphabet.size()];
      }
      const std::size_t fixed = n == 0 ? 0 : random() % (n + 1);
      INFO("drawn \"" << drawn << "\" line \"" << line << "\" fixed " << fixed);
      REQUIRE(isRedraw(drawn, line, fixed) == reference(drawn, line, fixed));
      redraws += reference(drawn, line, fixed);
    }
  }
  CHECK(redraws > 2000);  // both answers were asked often
  CHECK_FALSE(isRedraw("abc", "abcd", 0));
}

namespace {
int checkShortcutOnLogsIn(const std::filesystem::path& dir) {
  int logs = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".log") continue;
    INFO(entry.path().filename().string());
    const std::string text = test::readFile(entry.path());
    CHECK(analyzeLog(text) == lineByLine(text));
    ++logs;
  }
  return logs;
}
}  // namespace

TEST_CASE("every log of the fixtures: the shortcut gives what parsing every line gives") {
  CHECK(checkShortcutOnLogsIn(test::sourceDir() / "tests/fixtures/logs") >= 30);
  CHECK(checkShortcutOnLogsIn(test::sourceDir() / "tests/fixtures/diagnosis") >= 7);
}

TEST_CASE("every log of the corpus: the shortcut gives what parsing every line gives", "[shared]") {
  OOMLINT_REQUIRE_SHARED();
  CHECK(checkShortcutOnLogsIn(test::sharedDir() / "corpus/logs") >= 40);
}

namespace {
// A small rules/logs.yaml of made-up text, with `extra` added to its top level.
std::string syntheticMarkers(const std::string& markerPhase = "load", const std::string& barWord = "warming up",
                             const std::string& trainer = "sd-scripts") {
  return "version: 1\n"
         "oom_messages:\n"
         "  - {contains: [\"allocator gave up\"], kind: hip_alloc, source: test}\n"
         "  - {contains: [\"reaper came\"], kind: host_ram, certainty: suspected, evidence: \"the reaper came\", source: test}\n"
         "silent_exits: [{equals: [\"Bye now\"], evidence: \"it left\", source: test}]\n"
         "failed_stages: [{contains: [\"could not warm\"], phase: quantize, source: test}]\n"
         "allocation_table: {lines: 2, rows: [{starts_with: \"Asked\", figure: tried_to_allocate}], source: test}\n"
         "markers:\n"
         "  - {starts_with: [\"Warming\"], phase: " + markerPhase + ", source: test}\n"
         "trainers:\n"
         "  - {trainer: ai-toolkit, contains: [\"my-trainer/\"], source: test}\n"
         "  - {trainer: " + trainer + ", contains: [\"their_train.py\"], source: test}\n"
         "tools:\n"
         "  launch_args: \"Flags:\"\n"
         "  system_report_args: \"Report flags: [\"\n"
         "  card_memory: \"Card holds \"\n"
         "  version_line: \"MyUI release \"\n"
         "  vram_state: \"Mode is \"\n"
         "  vram_state_flags: [{state: TIGHT, flag: \"--lowvram\"}]\n"
         "  dynamic_vram: \"Paging on\"\n"
         "  dynamic_vram_flag: \"--paging\"\n"
         "  signs: [{tool: comfyui, contains: [\"MyUI\"], source: test}]\n"
         "offload: {tools: [comfyui], contains: [\"spilled\"], source: test}\n"
         "failures: [{starts_with: [\"Fatal\"], source: test}]\n"
         "bars: {not_when_ends_with: [\"Killed\"], kinds: [{kind: loading, contains: [\"" + barWord + "\"], source: test}]}\n"
         "traceback:\n"
         "  frames: [{equals: [\"warm\"], clue: load, source: test}]\n"
         "  quoted_code: [{contains: [\"warm(\"], clue: load, source: test}]\n"
         "gpu_state: {capped_by: [\" capped\"], source: test}\n"
         "log_signs: {head: [\"Warming\"], tail: [\"gave up\"], source: test}\n";
}
}  // namespace

TEST_CASE("the scanner reads the markers it is given, not the embedded ones") {
  auto doc = readDocument(syntheticMarkers());
  KnowledgeTextStore kept;  // outlives the markers, whose strings are views of it
  LogMarkers markers;
  REQUIRE(readLogMarkers(doc->root(), markers, kept).empty());
  const LogAnalysis a = analyzeLog("MyUI starting\nWarming the model\nmy allocator gave up\n", markers);
  CHECK(a.oom);
  CHECK(a.kind == OomKind::HipAlloc);
  CHECK(a.phase == Phase::Load);
  CHECK(a.tool == "comfyui");
  CHECK(a.trainer.empty());
  // Its trainers' signs, the stronger one winning wherever it comes.
  CHECK(analyzeLog("python their_train.py\nWarming the model\n", markers).trainer == "sd-scripts");
  CHECK(analyzeLog("python their_train.py\n/opt/my-trainer/run.py\npython their_train.py\n", markers).trainer == "ai-toolkit");
  CHECK(analyzeLog("python ai-toolkit/run.py\n", markers).trainer.empty());
  CHECK_FALSE(analyzeLog("torch.OutOfMemoryError: CUDA out of memory.\n", markers).oom);
  CHECK(looksLikeLog("Warming\n", markers));
  CHECK_FALSE(looksLikeLog("Traceback (most recent call last):\n", markers));
  // Its suspected marks, silent exits and failed-stage words, not the embedded ones.
  const LogAnalysis reaped = analyzeLog("Warming the model\nthe reaper came\n", markers);
  CHECK(reaped.suspected);
  CHECK(reaped.kind == OomKind::HostRam);
  REQUIRE(reaped.evidence.size() == 2);
  CHECK(reaped.evidence[0].why == "the reaper came");
  CHECK_FALSE(analyzeLog("Warming the model\nKilled\n", markers).suspected);
  const LogAnalysis left = analyzeLog("Warming the model\nBye now\n", markers);
  CHECK(left.suspected);
  CHECK(left.evidence[0].why == "it left");
  CHECK(analyzeLog("my allocator gave up\ncould not warm\n", markers).phase == Phase::Quantize);
  CHECK(looksLikeLog("the reaper came\n", markers));  // a text with an OOM's mark is a log
  // Its start-up lines, not ComfyUI's.
  const LogAnalysis started =
      analyzeLog("MyUI starting\nMyUI release v2.4\nComfyUI version: 0.16.4\nCard holds 8192 MB\nMode is TIGHT\nPaging on\nTotal VRAM 4096 MB\n", markers);
  CHECK(started.cardBytes == std::optional<std::int64_t>(8192ll << 20));
  CHECK(started.toolVersion == "2.4.0");
  CHECK(started.vramState == "TIGHT");
  CHECK(started.launchArgs == "--lowvram --paging");
  // Its system report's list of flags: one JSON string a line, the script left out, up to the bracket.
  CHECK(analyzeLog("MyUI starting\nReport flags: [\n  \"run.py\",\n  \"--tight\",\n  \"--device\",\n  \"1\"\n],\n\"Other\": \"--not-a-flag\"\n", markers)
            .launchArgs == "--tight --device 1");
}

TEST_CASE("log markers the scanner cannot use are load errors") {
  KnowledgeTextStore kept;
  LogMarkers markers;
  auto unknownPhase = readDocument(syntheticMarkers("unknown"));
  const auto phaseProblems = readLogMarkers(unknownPhase->root(), markers, kept);
  REQUIRE(phaseProblems.size() == 1);
  CHECK(phaseProblems[0] == "markers: `unknown` is not a stage a log announces");
  LogMarkers again;
  auto uppercase = readDocument(syntheticMarkers("load", "Warming Up"));
  const auto caseProblems = readLogMarkers(uppercase->root(), again, kept);
  REQUIRE(caseProblems.size() == 1);
  CHECK(caseProblems[0] == "bars.kinds: `Warming Up` is matched against lowercased text");
  LogMarkers stranger;
  auto unknownTrainer = readDocument(syntheticMarkers("load", "warming up", "one-trainer"));
  const auto trainerProblems = readLogMarkers(unknownTrainer->root(), stranger, kept);
  REQUIRE(trainerProblems.size() == 1);
  CHECK(trainerProblems[0] == "trainers: `one-trainer` is not an id the scanner handles");
  // A suspicion must say what its line shows: the report quotes it.
  LogMarkers mute;
  std::string text = syntheticMarkers();
  text.replace(text.find(", evidence: \"the reaper came\""), std::string(", evidence: \"the reaper came\"").size(), "");
  auto noEvidence = readDocument(text);
  const auto evidenceProblems = readLogMarkers(noEvidence->root(), mute, kept);
  REQUIRE(evidenceProblems.size() == 1);
  CHECK_THAT(evidenceProblems[0], Catch::Contains("does not say what its line shows"));
}

TEST_CASE("ComfyUI's start-up lines: the card's memory and the memory mode, as the flag that sets it; the advice skips it") {
  const auto start = [](std::string_view state) {
    return "Total VRAM 12282 MB, total RAM 32637 MB\n"
           "pytorch version: 2.7.1+cu128\n"
           "ComfyUI version: 0.3.64\n"
           "Set vram state to: " + std::string(state) + "\n"
           "Device: cuda:0 NVIDIA GeForce RTX 3060 : cudaMallocAsync\n"
           "got prompt\n"
           "Requested to load WAN21\n"
           "!!! Exception during processing !!! Allocation on device \n"
           "torch.OutOfMemoryError: Allocation on device \n";
  };
  const LogAnalysis novram = analyzeLog(start("NO_VRAM"));
  CHECK(novram.tool == "comfyui");
  REQUIRE(novram.cardBytes);
  CHECK(*novram.cardBytes == 12282ll << 20);
  CHECK(novram.vramState == "NO_VRAM");
  CHECK(novram.launchArgs == "--novram");
  CHECK(novram.toolVersion == "0.3.64");
  const LogAnalysis low = analyzeLog(start("LOW_VRAM"));
  CHECK(low.launchArgs == "--lowvram");
  const LogAnalysis normal = analyzeLog(start("NORMAL_VRAM"));
  CHECK(normal.vramState == "NORMAL_VRAM");
  CHECK(normal.launchArgs.empty());  // the default: no flag sets it
  // The advice names the next flag, not the one it ran with.
  const auto advice = [](const std::string& log) {
    const FileReport r = analyzeInput(Input{"comfy.log", log});
    for (const auto& d : r.diagnostics) {
      if (d.code == "OL601") return d.message;
    }
    return std::string();
  };
  CHECK(advice(start("NORMAL_VRAM")).find("start with --lowvram (then --novram)") != std::string::npos);
  CHECK(advice(start("LOW_VRAM")).find("run as with --lowvram): start with --novram") != std::string::npos);
  const std::string none = advice(start("NO_VRAM"));
  CHECK(none.find("run as with --novram") != std::string::npos);
  CHECK(none.find("start with") == std::string::npos);
  CHECK(advice(start("HIGH_VRAM")).find("drop --highvram") != std::string::npos);
  // Dynamic VRAM on (ComfyUI v0.16.0 on, NVIDIA): its line names the flag that forces it; no mode flag is advised.
  const std::string dynamicLog = start("NORMAL_VRAM").insert(std::string("Total VRAM 12282 MB, total RAM 32637 MB\n").size(),
                                                             "DynamicVRAM support detected and enabled\n");
  CHECK(analyzeLog(dynamicLog).launchArgs == "--enable-dynamic-vram");
  const std::string dynamicAdvice = advice(dynamicLog);
  CHECK(dynamicAdvice.find("already streams the weights") != std::string::npos);
  CHECK(dynamicAdvice.find("start with") == std::string::npos);
  // A line that only looks like one: no figure is read from it.
  CHECK_FALSE(analyzeLog("got prompt\nTotal VRAM unknown\nRequested to load SDXL\n").cardBytes);
  CHECK(analyzeLog("got prompt\nComfyUI version: 0.3.64-dev\nRequested to load SDXL\n").toolVersion.empty());
}

TEST_CASE("the trainer a log names is the one that wrote it, or none", "[shared]") {
  OOMLINT_REQUIRE_SHARED();
  // Every real log whose writer is known (the corpus's and the fixtures' names begin with it): a trainer's sign names
  // that trainer or nothing (a log of its bare traceback shows none), never another; a UI's or another tool's names none.
  std::map<std::string, int> named;
  for (const auto& dir : {test::sharedDir() / "corpus/logs", test::sourceDir() / "tests/fixtures/logs"}) {
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (entry.path().extension() != ".log") continue;
      const std::string file = entry.path().filename().string();
      const std::size_t from = file.find('_') + 1;
      const std::string writer = file.substr(from, file.find('_', from) - from);
      const std::string text = test::readFile(entry.path());
      const LogAnalysis a = analyzeLog(text);
      INFO(file);
      // kijai's ComfyUI-FluxTrainer runs sd-scripts' own code inside ComfyUI: its lines are sd-scripts'.
      const bool fluxTrainer = writer == "comfyui" && text.find("ComfyUI-FluxTrainer") != std::string::npos;
      if (!a.trainer.empty()) CHECK(a.trainer == (fluxTrainer ? "sd-scripts" : writer));
      ++named[a.trainer];
    }
  }
  for (const char* trainer : {"ai-toolkit", "musubi-tuner", "sd-scripts"}) {
    INFO(trainer);
    CHECK(named[trainer] >= 4);
  }
}
