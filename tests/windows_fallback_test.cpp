// OL506: a config whose paths show Windows gets, beside an out-of-memory or borderline estimate, what NVIDIA's Windows
// driver does with the phases over the card (spills them into system memory), once or at every step.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "analyze.h"
#include "base/document/reader.h"
#include "engine/windows_evidence.h"
#include "test_support.h"

using namespace oomlint;

namespace {

std::string job(const std::string& folder, int batch) {
  return "job: extension\n"
         "config:\n"
         "  name: w\n"
         "  process:\n"
         "    - type: sd_trainer\n"
         "      training_folder: output\n"
         "      network: {type: lora, linear: 16, linear_alpha: 16}\n"
         "      datasets:\n"
         "        - folder_path: \"" + folder + "\"\n"
         "          cache_latents_to_disk: true\n"
         "          resolution: [512, 768, 1024]\n"
         "      train: {batch_size: " + std::to_string(batch) + ", steps: 100, gradient_checkpointing: true, optimizer: adamw8bit, "
         "lr: 0.0001, dtype: bf16, cache_text_embeddings: true}\n"
         "      model: {name_or_path: black-forest-labs/FLUX.1-dev, arch: flux, quantize: true, low_vram: true}\n";
}

std::vector<std::string> windowsFindings(const std::string& config, const std::string& gpu) {
  AnalyzeOptions options;
  options.gpu = gpu;
  const FileReport r = analyzeInput(Input{"train.yaml", config}, options);
  std::vector<std::string> out;
  for (const auto& d : r.diagnostics) {
    if (d.code == "OL506") out.push_back(d.message);
  }
  return out;
}

}  // namespace

TEST_CASE("a Windows path is a drive letter and a separator, or a share") {
  for (const char* yes : {"C:\\ai-toolkit\\datasets\\me", "d:/models/flux", "\\\\nas\\share\\images", "Z:\\"}) CHECK(isWindowsPath(yes));
  for (const char* no : {"/data/images", "output", "C:", "C:file", "http://host/x", "\\\\?\\C:\\x", "black-forest-labs/FLUX.1-dev", ""}) {
    CHECK_FALSE(isWindowsPath(no));
  }
}

TEST_CASE("OL506 says which phases over the card would spill on Windows: once, or at every step") {
  // low_vram quantizes on the CPU: the training step is the peak. Batch 4 at 1024 is over a 16 GB card at every step.
  const auto heavy = windowsFindings(job("C:\\\\ai-toolkit\\\\datasets\\\\me", 4), "RTX 4080 Super");
  REQUIRE(heavy.size() == 1);
  CHECK_THAT(heavy[0], Catch::StartsWith("the job runs on Windows (C:\\ai-toolkit\\datasets\\me)"));
  CHECK_THAT(heavy[0], Catch::Contains("train_step (") && Catch::Contains("would be slower at every step"));
  // The same job with Linux paths: no Windows finding, the estimate's own findings unchanged.
  CHECK(windowsFindings(job("/data/images", 4), "RTX 4080 Super").empty());
  // A job that fits says nothing of Windows.
  CHECK(windowsFindings(job("C:\\\\ai-toolkit\\\\datasets\\\\me", 1), "A100 80GB").empty());
}

TEST_CASE("OL506 for sd-scripts: a Windows path among the arguments, or a Windows script") {
  const std::string args = " --network_module=networks.lora --network_dim=32 --train_batch_size=4 --mixed_precision=bf16 --resolution=1024,1024";
  const auto run = [&](const std::string& path, const std::string& model) {
    AnalyzeOptions options;
    options.gpu = "RTX 3060 8GB";
    const FileReport r = analyzeInput(Input{path, "accelerate launch sdxl_train_network.py --pretrained_model_name_or_path=" + model + args + "\n"}, options);
    std::vector<std::string> out;
    for (const auto& d : r.diagnostics) {
      if (d.code == "OL506") out.push_back(d.message);
    }
    return out;
  };
  const auto byPath = run("train.sh", "\"C:\\models\\sdxl.safetensors\"");
  REQUIRE(byPath.size() == 1);
  CHECK_THAT(byPath[0], Catch::StartsWith("the job runs on Windows (C:\\models\\sdxl.safetensors)"));
  CHECK_THAT(byPath[0], Catch::Contains("train_step (") && Catch::Contains("at every step"));
  CHECK(run("train.bat", "/models/sdxl.safetensors").size() == 1);  // the script kind says it
  CHECK(run("train.sh", "/models/sdxl.safetensors").empty());
}

TEST_CASE("the Windows path search reads each written value once: an alias bomb costs what its text does") {
  // Ten merges of ten merges, eight levels deep: 10^8 mappings once expanded, none of them searched.
  std::string text = "job: extension\nmeta:\n  l0: &a0 {folder_path: /data}\n";
  for (int level = 1; level <= 8; ++level) {
    const std::string below = "*a" + std::to_string(level - 1);
    text += "  l" + std::to_string(level) + ": &a" + std::to_string(level) + " {<<: [";
    for (int i = 0; i < 10; ++i) text += (i ? ", " : "") + below;
    text += "]}\n";
  }
  text += "config:\n  process:\n    - type: sd_trainer\n      model: {<<: *a8, name_or_path: \"D:/models/flux\"}\n";
  const auto doc = readDocument(text);
  const auto found = windowsPathUnder(doc->root(), KeyPath{});
  REQUIRE(found.has_value());
  CHECK(found->text == "D:/models/flux");
  CHECK(found->path.toString() == "config.process[0].model.name_or_path");
}
