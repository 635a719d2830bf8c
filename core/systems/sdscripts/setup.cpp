#include "systems/sdscripts/setup.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "base/text/ascii.h"

namespace oomlint {

namespace {

SdSetting<bool> flagSetting(const SdJob& job, std::string_view name) {
  SdSetting<bool> s;
  if (const SdArg* a = job.find(name)) s = {a->truthy(), a};
  return s;
}

SdSetting<int> intSetting(const SdJob& job, std::string_view name, int fallback) {
  SdSetting<int> s{fallback, nullptr};
  if (const SdArg* a = job.find(name)) {
    if (auto n = a->number()) s = {static_cast<int>(std::clamp(*n, -1e9, 1e9)), a};
  }
  return s;
}

SdSetting<std::string> textSetting(const SdJob& job, std::string_view name, std::string fallback) {
  SdSetting<std::string> s{std::move(fallback), nullptr};
  if (const SdArg* a = job.find(name)) s = {a->text(), a};
  return s;
}

// "1024", "1024,768", [1024, 768] → the square-equivalent side (buckets keep the area).
std::optional<int> squareSide(const std::vector<std::string>& values) {
  std::vector<double> sides;
  for (const auto& v : values) {
    std::size_t at = 0;
    while (at < v.size()) {
      char* end = nullptr;
      const double d = std::strtod(v.c_str() + at, &end);
      if (end == v.c_str() + at) {
        ++at;
        continue;
      }
      sides.push_back(d);
      at = static_cast<std::size_t>(end - v.c_str());
    }
  }
  if (sides.empty() || sides.size() > 2 || sides.front() <= 0) return std::nullopt;
  const double w = sides.front(), h = sides.size() == 2 ? sides[1] : sides.front();
  if (!(h > 0) || w > 1e5 || h > 1e5) return std::nullopt;
  return static_cast<int>(std::lround(std::sqrt(w * h)));
}

// The dataset TOML's largest batch, resolution, frames and section window (`windowKey`, empty when the
// script trains whole clips): [general] values inherited by each [[datasets]].
void readDataset(const SdFile& file, std::string_view windowKey, SdSetup& s) {
  const Node* root = file.doc ? file.doc->root() : nullptr;
  if (root == nullptr || !root->isMapping()) return;
  const Node* general = root->find("general");
  const Node* datasets = root->find("datasets");
  std::vector<std::pair<const Node*, KeyPath>> scopes;
  if (datasets && datasets->isSequence()) {
    for (std::size_t i = 0; i < datasets->resolved()->items.size(); ++i) scopes.emplace_back(datasets->resolved()->items[i], KeyPath::of({"datasets"}).item(i));
  }
  if (scopes.empty()) scopes.emplace_back(nullptr, KeyPath{});
  for (const auto& [dataset, path] : scopes) {
    for (std::string_view key : {std::string_view("batch_size"), std::string_view("resolution"), std::string_view("target_frames"), windowKey}) {
      if (key.empty()) continue;
      const Node* n = dataset && dataset->isMapping() ? dataset->find(key) : nullptr;
      KeyPath at = path.key(key);
      if (n == nullptr && general && general->isMapping()) {
        n = general->find(key);
        at = KeyPath::of({"general", key});
      }
      if (n == nullptr) continue;
      const bool window = key == windowKey;
      const bool batch = key == "batch_size";
      const bool frames = key == "target_frames";
      std::optional<int> value;
      if ((batch || window) && n->isNumber()) value = clampedInt(n->number());
      if (frames) {
        for (const auto& v : scalarTexts(n)) value = std::max(value.value_or(1), std::atoi(v.c_str()));
      }
      if (!batch && !frames && !window) value = squareSide(scalarTexts(n));
      if (!value) continue;
      auto& slot = window ? s.datasetWindow : batch ? s.datasetBatch : frames ? s.datasetFrames : s.datasetResolution;
      if (!slot || *value > slot->value) slot = SdDatasetValue{*value, n, at};
    }
  }
}

// The native size of a family, when nothing gives the resolution.
int nativeSide(const TrainerScript* script) {
  if (script == nullptr) return 512;
  const std::string& a = script->arch;
  return a == "sd1" || a == "sd2" ? 512 : 1024;
}

// A script that trains one section per sample (FramePack) sees its window of latent frames and the packed
// context beside it, not the clip (rules/musubi-tuner.yaml `sections`; one-frame training, FramePack's
// fp_1f_*, keeps fewer: counted as a section, on the safe side). As pixel frames, for the estimate's
// temporal compression.
int sectionFrames(const SdSetup& s, const TrainerSections& sections, const Architecture& arch) {
  const int window = std::clamp(s.datasetWindow ? s.datasetWindow->value : sections.window, 1, 1000);
  const int latentFrames = window + sections.contextLatentFrames;
  return (latentFrames - 1) * std::max(1, arch.vae.temporal) + 1;
}

// LyCORIS's kohya module reads `bypass_mode` and `dora_wd` from network_args' "key=value" words, any value but
// "false" meaning yes (lycoris/kohya.py create_network, utils str_bool). Outside the bypass mode each module runs its
// layer's op on the weight delta it builds, which autograd keeps (modules/locon.py forward, since 2024-02); DoRA
// scales the merged weight by its norm first, keeping that too.
int lycorisMergedWeightCopies(std::string_view module, const SdArg* networkArgs) {
  if (!lowercase(module).starts_with("lycoris")) return 0;
  bool bypass = false, dora = false;
  for (const auto& word : networkArgs ? networkArgs->values : std::vector<std::string>{}) {
    const std::size_t eq = word.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = word.substr(0, eq);  // train_network.py splits each word at '=' as it stands
    const bool yes = lowercase(word.substr(eq + 1)) != "false";
    if (key == "bypass_mode") bypass = yes;
    if (key == "dora_wd") dora = yes;
  }
  return bypass ? 0 : dora ? 2 : 1;
}

}  // namespace

int blockSwapUnits(const Architecture& arch) {
  if (arch.denoiser.swapUnits > 0) return arch.denoiser.swapUnits;
  return arch.fluxFamily ? 38 : arch.denoiser.blocks;
}

int SdSetup::maxBlocksToSwap() const {
  if (arch == nullptr) return 0;
  const bool paired = arch->denoiser.swapUnits > 0 || arch->fluxFamily;
  return blockSwapUnits(*arch) - (paired ? 3 : 2);
}

SdSetup setupFrom(const SdJob& job, const Architectures& architectures) {
  SdSetup s;
  s.script = job.script;
  s.arch = job.script && !job.script->arch.empty() ? architectures.byId(job.script->arch) : nullptr;
  if (job.script && job.script->arch == "sd1") {
    if (const SdArg* v2 = job.find("v2"); v2 && v2->truthy()) s.arch = architectures.byId("sd2");
  }
  s.tool = job.tool;
  s.musubi = job.tool && job.tool->id == "musubi-tuner";
  if (s.musubi && job.script) {
    // Wan's --task and FLUX.2's --model_version pick the model.
    const auto task = textSetting(job, job.script->taskArg, job.script->taskDefault);
    for (const auto& [name, arch] : job.script->taskArchs) {
      if (name == task.value) s.arch = architectures.byId(arch);
    }
    s.variantHint = task.value;
    if (s.arch && s.arch->denoiser.experts > 1) {
      // One expert is trained unless both DiTs are given; offload_inactive_dit keeps the idle one in RAM.
      const bool both = job.find("dit_high_noise") != nullptr;
      const SdArg* offload = job.find("offload_inactive_dit");
      s.residentExperts = both && !(offload && offload->truthy()) ? s.arch->denoiser.experts : 1;
    }
  }
  // musubi-tuner's caching scripts' text-encoder fp8 flags, and sd-scripts' HunyuanImage --fp8_vl.
  for (const char* fp8 : {"fp8_llm", "fp8_t5", "fp8_vl"}) {
    if (const SdArg* a = job.find(fp8); a && a->truthy()) s.fp8TextEncoder = true;
  }
  s.mixedPrecision = textSetting(job, "mixed_precision", "no");
  s.fullBf16 = flagSetting(job, "full_bf16");
  s.fullFp16 = flagSetting(job, "full_fp16");
  s.fp8Base = flagSetting(job, "fp8_base");
  s.fp8BaseUnet = flagSetting(job, "fp8_base_unet");
  s.fp8Scaled = flagSetting(job, "fp8_scaled");
  s.textEncoderCpu = flagSetting(job, "text_encoder_cpu");
  s.noHalfVae = flagSetting(job, "no_half_vae");
  const bool attentionFlag = flagSetting(job, "xformers").value || flagSetting(job, "sdpa").value || flagSetting(job, "mem_eff_attn").value;
  const bool vaeOnly = job.script && job.script->diffusersXformersVaeOnly && flagSetting(job, "diffusers_xformers").value;
  s.unetPlainAttention = !s.musubi && (!attentionFlag || vaeOnly);
  // musubi-tuner's VAE, for the latent cache and sampling: --vae_dtype unless the script fixes its own.
  if (s.musubi && job.script && !job.script->vaeDtype.empty()) {
    s.vaeDtype = job.script->vaeDtypeFixed ? SdSetting<std::string>{job.script->vaeDtype, nullptr}
                                           : textSetting(job, "vae_dtype", job.script->vaeDtype);
  }
  s.gradientCheckpointing = flagSetting(job, "gradient_checkpointing");
  s.cpuOffloadCheckpointing = flagSetting(job, "cpu_offload_checkpointing");
  s.splitMode = flagSetting(job, "split_mode");
  s.blocksToSwap = intSetting(job, "blocks_to_swap", 0);
  if (s.isFlux() && s.splitMode.value && s.blocksToSwap.value == 0) s.blocksToSwap = {18, s.splitMode.from};
  s.cacheLatentsToDisk = flagSetting(job, "cache_latents_to_disk");
  s.cacheLatents = flagSetting(job, "cache_latents");
  if (s.cacheLatentsToDisk.value && !s.cacheLatents.value) s.cacheLatents = s.cacheLatentsToDisk;
  s.cacheTextEncoderOutputs = flagSetting(job, "cache_text_encoder_outputs");
  if (const auto toDisk = flagSetting(job, "cache_text_encoder_outputs_to_disk"); toDisk.value && !s.cacheTextEncoderOutputs.value) {
    s.cacheTextEncoderOutputs = toDisk;
  }
  s.lowram = flagSetting(job, "lowram");
  s.networkTrainUnetOnly = flagSetting(job, "network_train_unet_only");
  if (s.finetune() && job.script->name == "train_db.py") {
    const auto stop = intSetting(job, "stop_text_encoder_training", 0);
    s.finetuneTextEncoders = {stop.value >= 0, stop.from};
  } else if (s.finetune()) {
    s.finetuneTextEncoders = flagSetting(job, "train_text_encoder");
    const auto rate = [&](const char* key) { return textSetting(job, key, ""); };
    const auto zero = [](const SdSetting<std::string>& r) { return !r.isDefault() && std::atof(r.value.c_str()) == 0; };
    if (zero(rate("learning_rate_te1")) && zero(rate("learning_rate_te2"))) s.finetuneTextEncoders.value = false;
  }
  s.networkDim = intSetting(job, "network_dim", 4);
  s.networkModule = textSetting(job, "network_module", "");
  for (const char* key : {"network_module", "LoRA_type", "network_args"}) {
    if (const SdArg* a = job.find(key)) {
      for (const auto& v : a->values) s.lokr = s.lokr || lowercase(v).find("lokr") != std::string::npos;
    }
  }
  s.mergedWeightCopies = lycorisMergedWeightCopies(s.networkModule.value, job.find("network_args"));
  s.optimizer = textSetting(job, "optimizer_type", "");
  s.fusedBackwardPass = flagSetting(job, "fused_backward_pass");
  s.gradientAccumulationSteps = intSetting(job, "gradient_accumulation_steps", 1);
  if (s.optimizer.value.empty()) {
    if (const auto adam8 = flagSetting(job, "use_8bit_adam"); adam8.value) s.optimizer = {"AdamW8bit", adam8.from};
    else s.optimizer.value = "AdamW";
  }
  s.trainBatch = intSetting(job, "train_batch_size", 1);
  // musubi-tuner's dataset default is 960×544 (tr §3): the square of the same area.
  s.resolution = SdSetting<int>{s.musubi ? 722 : nativeSide(job.script), nullptr};
  s.resolutionAssumed = true;
  if (const SdArg* r = job.find("resolution")) {
    if (auto side = squareSide(r->values)) {
      s.resolution = {*side, r};
      s.resolutionAssumed = false;
    }
  }
  const auto& sections = job.script ? job.script->sections : std::nullopt;
  if (const SdFile* dataset = job.dataset()) readDataset(*dataset, sections ? sections->windowKey : "", s);
  if (s.datasetBatch) s.trainBatch.value = s.datasetBatch->value;
  if (s.datasetFrames) s.frames = std::max(1, s.datasetFrames->value);
  if (s.arch && sections) s.frames = sectionFrames(s, *sections, *s.arch);
  if (s.musubi) {
    // The caching scripts ran before: training reads latents and text-encoder outputs from disk.
    s.cacheLatents.value = s.cacheTextEncoderOutputs.value = true;
  }
  if (s.datasetResolution) {
    s.resolution.value = s.datasetResolution->value;
    s.resolutionAssumed = false;
  }
  s.trainBatch.value = std::max(1, s.trainBatch.value);
  s.networkDim.value = std::max(1, s.networkDim.value);
  s.blocksToSwap.value = std::max(0, s.blocksToSwap.value);
  s.sampleAtFirst = flagSetting(job, "sample_at_first");
  for (const char* every : {"sample_every_n_steps", "sample_every_n_epochs"}) {
    if (const SdArg* a = job.find(every); a && a->number().value_or(0) > 0 && job.find("sample_prompts")) {
      s.samplesDuringTraining = true;
      s.sampleEvery = a;
    }
  }
  return s;
}

}  // namespace oomlint
