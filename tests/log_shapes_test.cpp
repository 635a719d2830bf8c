// The log shapes issue 21's unseen corpus showed, on inline logs: an OOM that can only be suspected (a
// kill, a silent exit, a cache step failing), its evidence; a message wrapped over lines or printed where
// a bar's cursor stood; what a tool says failed beside its error; a generation UI's phase; console text
// that is no config.
#include <catch2/catch.hpp>

#include "analyze.h"
#include "base/knowledge/knowledge.h"
#include "format/formatters.h"
#include "systems/logs/log_analysis.h"
#include "test_support.h"

using namespace oomlint;

namespace {
bool hasCode(const FileReport& file, std::string_view code) {
  return std::any_of(file.diagnostics.begin(), file.diagnostics.end(), [&](const Diagnostic& d) { return d.code == code; });
}
}  // namespace

TEST_CASE("a kill by SIGKILL is a suspected host-RAM OOM, with its line and the stage as evidence") {
  for (const std::string kill : {"[E] failed (exitcode: -9) local_rank: 0 (pid: 3787) of binary: /venv/bin/python",
                                 "subprocess.CalledProcessError: Command '['python', 'train.py']' died with <Signals.SIGKILL: 9>.",
                                 "[ERROR] [launch.py:325:sigkill_handler] ['python', '-u', 'train.py'] exits with return code = -9",
                                 "./train.sh: line 14: 30817 Killed                  python train.py", "Killed"}) {
    DYNAMIC_SECTION(kill) {
      const LogAnalysis a = analyzeLog("Loading checkpoint shards:  50%|#####     | 2/4 [00:09<00:09,  4.50s/it]\nInit AE\n" + kill + "\n");
      CHECK_FALSE(a.oom);
      CHECK(a.suspected);
      CHECK(a.kind == OomKind::HostRam);
      CHECK(a.phase == Phase::Load);
      REQUIRE(a.evidence.size() == 2);
      CHECK(a.evidence[0].line == 3);
      CHECK(a.evidence[0].text == kill);
      CHECK_THAT(a.evidence[0].why, Catch::Contains("SIGKILL"));
      CHECK(a.evidence[1].line == 1);
      CHECK_THAT(a.evidence[1].why, Catch::Contains("the last stage the run announced: load"));
    }
  }
}

TEST_CASE("a kill's later reports add evidence; a printed OOM wins; other exit codes are no kill") {
  const LogAnalysis twice = analyzeLog(
      "caching latents...\n"
      "E0611 failed (exitcode: -9) local_rank: 1 (pid: 8813) of binary: python\n"
      "  exitcode  : -9 (pid: 8813)\n  traceback : Signal 9 (SIGKILL) received by PID 8813\n");
  CHECK(twice.suspected);
  CHECK(twice.phase == Phase::LatentCache);
  REQUIRE(twice.evidence.size() == 4);
  CHECK(twice.evidence[2].line == 4);
  CHECK(twice.evidence.back().line == 1);  // the stage, last

  const LogAnalysis printed = analyzeLog(
      "Killed\n[Tue Mar 12 22:41:07 2024] Out of memory: Killed process 181724 (python) total-vm:61823412kB\n");
  CHECK(printed.oom);
  CHECK_FALSE(printed.suspected);
  CHECK(printed.evidence.empty());
  CHECK(printed.oomLine == 2);

  for (const std::string other : {"exits with return code = -11", "exits with return code = 1", "failed (exitcode: 1) local_rank: 0",
                                  "returned non-zero exit status 1.", "Killing subprocess 4120"}) {
    const LogAnalysis a = analyzeLog("Loading model\n" + other + "\n");
    CHECK_FALSE(a.oom);
    CHECK_FALSE(a.suspected);
    CHECK(a.phase == Phase::None);
  }
}

TEST_CASE("a process gone without a word mid-stage is suspected; a finished run or one that failed is not") {
  const std::string loading = "Running  1 process\nLoading transformer 2\nLoading checkpoint shards:   0%|          | 0/3 [00:00<?, ?it/s]\n";
  const LogAnalysis exited = analyzeLog(loading + "[UI] Job 37e1 exited with code 0 after 0.014 seconds.\n");
  CHECK(exited.suspected);
  CHECK(exited.kind == OomKind::HostRam);
  CHECK(exited.phase == Phase::Load);
  REQUIRE(exited.evidence.size() == 2);
  CHECK(exited.evidence[0].line == 4);
  CHECK(exited.evidence[1].line == 2);  // the marker that announced the stage, not the bar of it

  const LogAnalysis paused = analyzeLog("got prompt\nRequested to load FluxClipModel_\nPress any key to continue . . .\n");
  CHECK(paused.suspected);
  CHECK(paused.phase == Phase::Load);

  const LogAnalysis finished = analyzeLog(
      "my_lora: 100%|##########| 500/500 [16:40<00:00,  2.00s/it]\nSaving at step 500\n[UI] Job 0e6a exited with code 0 after 1131.9 seconds.\n");
  CHECK_FALSE(finished.suspected);
  CHECK(finished.reached == Phase::Save);
  CHECK(finished.reachedLine == 2);

  const LogAnalysis failed = analyzeLog(loading + "RuntimeError: Error(s) in loading state_dict\nPress any key to continue . . .\n");
  CHECK_FALSE(failed.suspected);
  CHECK_FALSE(failed.failure.empty());

  CHECK_FALSE(analyzeLog("Press any key to continue . . .\n").suspected);  // nothing had started

  // The shell's prompt back mid-stage: cmd's, PowerShell's, bash's, each after an optional environment.
  for (const std::string prompt : {"(venv) C:\\ai-toolkit>", "C:\\Program Files\\ai toolkit>", "PS D:\\train>",
                                   "user@box:~/ai-toolkit$", "(base) root@1f2e:/workspace#"}) {
    DYNAMIC_SECTION(prompt) {
      const LogAnalysis back = analyzeLog(loading + prompt + "\n");
      CHECK(back.suspected);
      CHECK(back.phase == Phase::Load);
    }
  }
  // Lines that only look like one: a state dict's report, an HTML tag, a shell variable.
  for (const std::string line : {"<All keys matched successfully>", "loading u-net: <All keys matched successfully>", "price: 5$",
                                 "C:\\models\\flux1-dev.safetensors > out.txt", "user@box: done, cost 2$"}) {
    DYNAMIC_SECTION(line) { CHECK_FALSE(analyzeLog(loading + line + "\n").suspected); }
  }
}

TEST_CASE("an allocator's mapping warning is an OOM's mark only where the run then died of an error") {
  const std::string warning =
      "[W831 10:32:25.255074645 CUDACachingAllocator.cpp:508] expandable_segments: memory mapping failed with OOM on device 0 while "
      "trying to map 20971520 bytes (free: 15663104, total: 33671348224).\n";
  const LogAnalysis died = analyzeLog("steps:  40%|####      | 400/1000\n" + warning + "RuntimeError: CUDA driver error: unknown error\n");
  CHECK(died.suspected);
  CHECK_FALSE(died.oom);
  CHECK(died.kind == OomKind::CudaAlloc);
  CHECK(died.numbers.triedToAllocate == 20971520);
  CHECK(died.numbers.free == 15663104);
  CHECK(died.numbers.totalCapacity == 33671348224);
  REQUIRE_FALSE(died.evidence.empty());
  CHECK(died.evidence[0].line == 2);
  CHECK_THAT(died.evidence[0].why, Catch::Contains("then died of an error: RuntimeError"));
  // Survived: the run trains on.
  CHECK_FALSE(analyzeLog("steps:  40%|####      | 400/1000\n" + warning + "steps: 100%|##########| 1000/1000\n").suspected);
  // A free count wrapped near 2^64 is no card's figure: left out, the others read.
  std::string wrapped = warning;
  wrapped.replace(wrapped.find("15663104"), 8, "18446744073666601943");
  const LogAnalysis garbled = analyzeLog(wrapped + "RuntimeError: CUDA driver error: unknown error\n");
  CHECK(garbled.suspected);
  CHECK_FALSE(garbled.numbers.free);
  CHECK(garbled.numbers.totalCapacity == 33671348224);
  // A printed OOM is the failure, the warning before it no more than that.
  const LogAnalysis printed = analyzeLog(warning + "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB.\n");
  CHECK(printed.oom);
  CHECK_FALSE(printed.suspected);
}

TEST_CASE("a bar redrawn to another total is read alike with and without the redraw shortcut") {
  const std::string text = "my_lora:  50%|#####     | 1/1 [00:01<00:00,  1.00s/it]\nmy_lora:  50%|#####     | 1/9 [00:01<00:00,  1.00s/it]\n"
                           "Press any key to continue . . .\n";
  LogScanner everyLine(*knowledge().logs, LogScanner::Redraws::LineByLine);
  everyLine.feed(text);
  const LogAnalysis shortcut = analyzeLog(text);
  CHECK(shortcut == everyLine.finish());
  CHECK(shortcut.suspected);  // 1 of 9 steps: unfinished
  CHECK(shortcut.step == 2);
}

TEST_CASE("a cache step failing on some images is a suspected VAE OOM in latent_cache") {
  const LogAnalysis a = analyzeLog(
      "Exception: (id=portraits) Some images were not correctly cached during the VAE Cache operations.\n"
      "Problematic images: ['/data/0412.png']\n");
  CHECK(a.suspected);
  CHECK(a.kind == OomKind::CudaAlloc);
  CHECK(a.phase == Phase::LatentCache);
  REQUIRE(a.evidence.size() == 1);  // the line announced the stage itself
  CHECK_THAT(a.evidence[0].why, Catch::Contains("VAE cache step failed on some images"));
}

TEST_CASE("a suspicion is reported as one, in every format") {
  const std::string log = "Loading Wan model\nLoading transformer 2\nKilled\n";
  const Report report = analyze({Input{"run.log", log}});
  REQUIRE(report.files.size() == 1);
  const FileReport& file = report.files[0];
  REQUIRE(file.diagnostics.size() == 1);
  CHECK(file.diagnostics[0].code == "OL608");
  CHECK(file.diagnostics[0].severity == Severity::Warning);
  CHECK(file.diagnostics[0].range.start.line == 3);
  CHECK_THAT(file.diagnostics[0].message, Catch::Contains("probably ran out of system RAM during load"));
  CHECK_THAT(file.diagnostics[0].message, Catch::Contains("line 2 `Loading transformer 2`"));
  CHECK_THAT(formatJson(report), Catch::Contains("\"oom\": false,"));
  CHECK_THAT(formatJson(report), Catch::Contains("\"suspected\": true,\n        \"evidence\": ["));
  CHECK_THAT(formatJson(report), Catch::Contains("\"line\": 3,\n            \"text\": \"Killed\""));
  const std::string sarif = formatSarif(report);
  CHECK_THAT(sarif, Catch::Contains("\"relatedLocations\""));
  CHECK_THAT(sarif, Catch::Contains("\"suspected\": true"));
  CHECK_THAT(formatText(report, {}), Catch::Contains("warning: the run probably ran out of system RAM"));
  CHECK_THAT(formatGithub(report), Catch::Contains("::warning file=run.log,line=3"));
  CHECK_THAT(formatGcc(report), Catch::Contains("run.log:3:1: warning:"));
  CHECK_THAT(formatJunit(report), Catch::Contains("OL608"));
  CHECK(exitCode(report, Severity::Error) == 0);  // a suspicion is no error
}

TEST_CASE("an allocator message wrapped over lines keeps its figures; the bar redrawn after it gives the step") {
  const LogAnalysis a = analyzeLog(
      "OutOfMemoryError: CUDA out of memory. Tried to allocate 50.00 MiB (GPU 0; 8.00 GiB total capacity; 7.08 GiB already\n"
      "allocated; 0 bytes free; 7.27 GiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting\n"
      "max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF\n"
      "steps:   0%|          | 3/1600 [00:11<1:41:50,  3.83s/it, loss=0.121]\n");
  CHECK(a.oom);
  CHECK(a.numbers.allocatedByPytorch == std::llround(7.08 * (1ll << 30)));
  CHECK(a.numbers.free == 0);
  CHECK(a.numbers.reservedUnallocated == std::llround(7.27 * (1ll << 30)) - std::llround(7.08 * (1ll << 30)));
  CHECK(a.phase == Phase::TrainStep);
  CHECK(a.step == 4);
  CHECK(a.oomLine == 1);
  // A line that starts another sentence is not joined.
  const LogAnalysis cut = analyzeLog("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has\nTraceback (most recent call last):\n");
  CHECK(cut.numbers.triedToAllocate == 20 * (1 << 20));
  CHECK_FALSE(cut.numbers.totalCapacity);
}

TEST_CASE("text printed where a bar's cursor stood is a line of its own") {
  const LogAnalysis detected = analyzeLog(
      "Steps:   1%|▏         | 36/3000 [01:02<1:25:13,  1.73s/it, loss=0.103]OOM Detected, reducing batch/grad size to 0/1.\n");
  CHECK(detected.oom);
  CHECK(detected.kind == OomKind::CudaAlloc);
  CHECK(detected.phase == Phase::TrainStep);
  CHECK(detected.step == 37);
  const LogAnalysis traceback = analyzeLog(
      "epoch:   2%|▏         | 2/100 [08:02<6:21:31, 233.59s/it]Traceback (most recent call last):\n"
      "  File \"trainer.py\", line 474, in save\n  File \"safetensors/torch.py\", line 286, in save_file\nMemoryError\n");
  CHECK(traceback.oom);
  CHECK(traceback.phase == Phase::Save);
  // A datasets Map bar runs inside the stage announced; it is no training bar.
  const LogAnalysis map = analyzeLog("caching latents: (1024, 1024, 1)\nMap:  12%|█▏        | 40/331 [00:31<03:48,  1.27 examples/s]Killed\n");
  CHECK(map.suspected);
  CHECK(map.phase == Phase::LatentCache);
}

TEST_CASE("a tool's own words for what failed give the phase of the error beside them") {
  CHECK(analyzeLog("step: 100%|##| 40/40 [02:11<00:00,  3.28s/it]\nMemoryError\nCould not save model. Check your disk space!\n").phase == Phase::Save);
  CHECK(analyzeLog("** model inpainting could not be loaded: DefaultCPUAllocator: not enough memory: you tried to allocate 13107200 bytes.\n")
            .phase == Phase::Load);
  CHECK(analyzeLog("RuntimeError: CUDA out of memory. Tried to allocate 128.00 MiB\n\n>> Could not generate image.\n").phase == Phase::Inference);
  // Too far from the error, they say nothing of it.
  CHECK(analyzeLog("MemoryError\na\nb\nc\nd\nCould not save model.\n").phase == Phase::Unknown);
}

TEST_CASE("a checkpoint being written outranks the training loop around it") {
  const LogAnalysis a = analyzeLog(
      "Traceback (most recent call last):\n  File \"sdxl_train.py\", line 600, in train\n"
      "  File \"train_util.py\", line 4173, in save_sd_model_on_epoch_end_or_stepwise_common\n"
      "  File \"safetensors/torch.py\", line 232, in save_file\nMemoryError\n");
  CHECK(a.kind == OomKind::HostRam);
  CHECK(a.phase == Phase::Save);
}

TEST_CASE("a generation UI that trained nothing was generating; a prose report of generating says so too") {
  const std::string comfy = "!!! Exception during processing !!! CUDA error: out of memory\nTraceback (most recent call last):\n"
                            "  File \"C:\\ComfyUI\\execution.py\", line 327, in execute\nRuntimeError: CUDA error: out of memory\n";
  const LogAnalysis a = analyzeLog(comfy);
  CHECK(a.tool == "comfyui");
  CHECK(a.phase == Phase::Inference);
  // Not for a trainer's log, nor for a kill in a UI (where it struck, nothing says).
  CHECK(analyzeLog("torch.OutOfMemoryError: CUDA out of memory.\n").phase == Phase::Unknown);
  CHECK(analyzeLog("webui.sh: line 255: 26147 Killed                  \"${python_cmd}\" -u launch.py\n").phase == Phase::Unknown);
  CHECK(analyzeLog("Every time I use highres fix it gives me \"OutOfMemoryError: CUDA out of memory. Tried to allocate 1.86 GiB\"\n").phase ==
        Phase::Inference);
}

TEST_CASE("one process that holds all the used memory is this one seen under the host's PID, not another") {
  const LogAnalysis self = analyzeLog(
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 256.00 MiB. GPU 0 has a total capacity of 39.39 GiB of which "
      "101.38 MiB is free. Process 2731 has 39.28 GiB memory in use. Of the allocated memory 38.10 GiB is allocated by PyTorch, and "
      "702.11 MiB is reserved by PyTorch but unallocated.\n");
  CHECK_FALSE(self.gpuStateSuspect);
  const LogAnalysis other = analyzeLog(
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 256.00 MiB. GPU 0 has a total capacity of 39.39 GiB of which "
      "101.38 MiB is free. Process 2731 has 12.00 GiB memory in use. Of the allocated memory 26.10 GiB is allocated by PyTorch, and "
      "702.11 MiB is reserved by PyTorch but unallocated.\n");
  CHECK(other.gpuStateSuspect);
}

TEST_CASE("console text that is no config is read as a log that says what it found") {
  for (const std::string text : {"Exception: the worker stopped\nDetails: see above\n", "It crashed again after a while, no idea why.\n",
                                 "Your session crashed after using all available RAM.\n"}) {
    DYNAMIC_SECTION(text) {
      const FileReport file = analyzeInput(Input{"paste.txt", text});
      CHECK(file.kind == InputKind::Log);
      CHECK_FALSE(hasCode(file, "OL101"));
      CHECK_FALSE(hasCode(file, "OL205"));
    }
  }
  const FileReport prose = analyzeInput(Input{"paste.txt", "It crashed again after a while, no idea why.\n"});
  REQUIRE(prose.diagnostics.size() == 1);
  CHECK(prose.diagnostics[0].code == "OL609");
  CHECK_THAT(prose.diagnostics[0].message, Catch::Contains("no out-of-memory failure found in this log (1 line"));
  // A config without its job keys, a lone word and JSON stay configs with their errors.
  CHECK(analyzeInput(Input{"part.yaml", "train:\n  batch_size: 1\n"}).kind == InputKind::AiToolkitJob);
  CHECK(analyzeInput(Input{"x.yaml", "hello\n"}).kind == InputKind::AiToolkitJob);
  CHECK(analyzeInput(Input{"x.json", "{\"Some Key\": 1}\n"}).kind == InputKind::AiToolkitJob);
  // But A1111's system report is a log: its "Exceptions" list holds the errors the UI caught.
  const FileReport sysinfo = analyzeInput(Input{"sysinfo.json", "{\n    \"Version\": \"v1.7.0\",\n    \"Exceptions\": [\n        {\n            "
                                                                 "\"exception\": \"CUDA out of memory. Tried to allocate 20.00 MiB\"\n        }\n    ]\n}\n"});
  CHECK(sysinfo.kind == InputKind::Log);
  CHECK(hasCode(sysinfo, "OL601"));
  // Nor is a TOML config, which YAML reads as one long value, taken for console output.
  CHECK(analyzeInput(Input{"lora.toml", "# sd-scripts\nbucket_no_upscale = true\nepoch = 1\n"}).kind == InputKind::AiToolkitJob);
  CHECK(analyzeInput(Input{"lora.toml", "Some words first\n[SD]\nmodel_type \"SD3\"\n"}).kind == InputKind::AiToolkitJob);
}

TEST_CASE("a host-RAM failure names the levers of the UI that wrote the log, a trainer's log AI Toolkit's") {
  const auto message = [](const std::string& log) {
    const Report report = analyze({Input{"run.log", log}});
    REQUIRE(report.files.at(0).diagnostics.size() == 1);
    return report.files[0].diagnostics[0].message;
  };
  const std::string comfy = message("got prompt\nRequested to load WAN21\n/app/run.sh: line 7:    12 Killed   python3 ComfyUI/main.py\n");
  CHECK_THAT(comfy, Catch::Contains("--cache-none"));
  CHECK_THAT(comfy, !Catch::Contains("layer_offloading"));
  const std::string a1111 = message("Launching Web UI with arguments: --xformers\nLoading weights [6ce0161689] from model.safetensors\nKilled\n");
  CHECK_THAT(a1111, Catch::Contains("--lowram"));
  CHECK_THAT(message("Loading Wan model\nLoading transformer 2\nKilled\n"), Catch::Contains("model.layer_offloading"));
}
