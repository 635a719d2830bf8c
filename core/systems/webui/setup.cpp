#include "systems/webui/setup.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <utility>

#include "base/text/ascii.h"
#include "base/text/suggest.h"

namespace oomlint {

namespace {

// "512x768" (what follows is ignored, as the parameters block may add to it): width and height, else nullopt.
std::optional<std::pair<long, long>> sizePair(std::string_view text) {
  long w = 0, h = 0;
  const char* end = text.data() + text.size();
  const auto first = std::from_chars(text.data(), end, w);
  if (first.ec != std::errc() || first.ptr == end || *first.ptr != 'x') return std::nullopt;
  const char* second = first.ptr + 1;
  while (second != end && *second == ' ') ++second;
  if (std::from_chars(second, end, h).ec != std::errc()) return std::nullopt;
  return std::pair{w, h};
}

bool truthyText(std::string_view text) {
  const std::string t = lowercase(text);
  return t == "true" || t == "yes" || t == "on" || t == "1";
}

// The launch flags, in order, as the setup's tool takes them: their effects, and how each stands (s.flags).
class FlagReader {
 public:
  FlagReader(GenerationSetup& setup, const WebUiKnowledge& webui) : s_(setup), w_(webui) {}

  void read(const std::vector<LaunchFlag>& flags) {
    for (const auto& flag : flags) readFlag(flag);
    // --enable-dynamic-vram wins over the mode flags in any order (cli_args.py enables_dynamic_vram); from v0.16.0 on
    // an NVIDIA card dynamic VRAM is also the default unless a flag chose the older manager. The text encoders then
    // run on the GPU whatever --lowvram says (model_management.py text_encoder_device) from v0.16.4, which any
    // ComfyUI with --enable-dynamic-vram (v0.18.0) is.
    if (!dynamicVram_ && !dynamicByDefault()) return;
    s_.loadMode = LoadMode::Dynamic;
    const auto encodersOnGpuSince = ReleaseVersion::parse(w_.comfyDynamicVramGpuTextEncoderSince);
    if (dynamicVram_ || (encodersOnGpuSince && *s_.comfyRelease >= *encodersOnGpuSince)) s_.textEncoderOnCpu = false;
  }

 private:
  // Forge removed A1111's memory flags but accepts them (ignored_by); a flag that exists in the tool and
  // is also listed as ignored there is ignored.
  void readFlag(const LaunchFlag& f) {
    ReadFlag r{&f, w_.flag(f.name), FlagStanding::Honoured, FlagChoice::Other};
    if (r.known == nullptr) r.standing = FlagStanding::Unknown;
    else if (r.known->ignoredIn(s_.tool)) r.standing = FlagStanding::Ignored;
    else if (!r.known->existsIn(s_.tool)) r.standing = FlagStanding::OtherTool;
    s_.flags.push_back(r);
    if (r.standing == FlagStanding::Honoured) s_.flags.back().choice = apply(*r.known, f);
  }

  FlagChoice apply(const WebUiFlag& flag, const LaunchFlag& f) {
    switch (flag.effect) {
      case FlagEffect::None: break;
      case FlagEffect::Attention:
        s_.attention = flag.backend;
        return FlagChoice::Attention;
      case FlagEffect::Medvram:
      case FlagEffect::MedvramSdxl:
        if (s_.offload == Offload::Normal) s_.offloadFlag = &f;
        if (s_.offload != Offload::Lowvram) s_.offload = Offload::Medvram;
        // --medvram-sdxl limits medvram to SDXL unless a plain --medvram came first.
        s_.medvramSdxlOnly = flag.effect == FlagEffect::MedvramSdxl && !sawMedvram_;
        sawMedvram_ = sawMedvram_ || flag.effect == FlagEffect::Medvram;
        return FlagChoice::Offload;
      case FlagEffect::Lowvram:
        if (s_.tool == WebUiTool::ComfyUi) {  // ComfyUI's --lowvram is a loading mode, and moves the text encoders
          s_.loadMode = LoadMode::Low;
          s_.textEncoderOnCpu = true;
          return FlagChoice::LoadMode;
        }
        if (s_.offload != Offload::Lowvram) s_.offloadFlag = &f;
        s_.offload = Offload::Lowvram;
        return FlagChoice::Offload;
      case FlagEffect::PrecisionFull:
        if (lowercase(f.value) != "full") break;
        [[fallthrough]];
      case FlagEffect::NoHalf:
      case FlagEffect::AllFp32:
        s_.fp32Weights = true;
        if (s_.fp32WeightsFlag == nullptr) s_.fp32WeightsFlag = &f;
        break;
      case FlagEffect::NoHalfVae:
      case FlagEffect::VaeFp32:
        s_.fp32Vae = true;
        s_.vaeDtypeFlag = true;
        if (s_.fp32VaeFlag == nullptr) s_.fp32VaeFlag = &f;
        break;
      case FlagEffect::VaeFp16:
      case FlagEffect::VaeBf16:
        s_.fp32Vae = false;
        s_.vaeDtypeFlag = true;
        break;
      case FlagEffect::Upcast: s_.upcastSampling = true; break;
      case FlagEffect::ForgeLowVram: return loadMode(LoadMode::Low);
      case FlagEffect::ForgeNoVram:
      case FlagEffect::ComfyNoVram:
        legacyManager_ = true;
        return loadMode(LoadMode::NoVram);
      case FlagEffect::ComfyHighVram:
        legacyManager_ = true;
        return loadMode(LoadMode::High);
      case FlagEffect::ComfyGpuOnly:
        legacyManager_ = true;
        return loadMode(LoadMode::GpuOnly);
      case FlagEffect::ComfyDynamicVram:
        dynamicVram_ = true;
        return FlagChoice::LoadMode;
      case FlagEffect::ComfyDisableDynamicVram: legacyManager_ = true; break;
      case FlagEffect::ForgeOffload: s_.alwaysOffload = true; break;
      case FlagEffect::UnetFp8:
        s_.unetFp8 = true;
        s_.unetDtypeByTool = false;
        break;
      case FlagEffect::Unet16Bit:
        if (s_.unetDtypeByTool) s_.unetFp8 = s_.unetDtypeByTool = false;
        break;
      case FlagEffect::ForceFp16: s_.forceFp16 = true; break;
      case FlagEffect::ComfyFp8Compute:
        if (s_.unetFp8) s_.unetDtypeByTool = false;  // an fp8 file stays fp8; a 16-bit one is still the card's to decide
        break;
      case FlagEffect::TextEncoderFp8: s_.textEncoderFp8 = true; break;
      case FlagEffect::VaeCpu: s_.vaeDecode = VaeDecode::Cpu; break;
      case FlagEffect::ComfyReserve: {
        char* end = nullptr;
        const double gb = std::strtod(f.value.c_str(), &end);
        if (f.value.empty() || end == f.value.c_str() || !(gb >= 0 && gb < 1024)) {
          s_.problems.push_back({f.range, KeyPath::of({"args"}), "`--reserve-vram` takes the GB to keep free (--reserve-vram 1.5)"});
        } else {
          s_.reserveBytes = gb * 1024 * 1024 * 1024;
        }
        break;
      }
      case FlagEffect::Cpu: {
        // --use-cpu names the modules (sd, controlnet, all, …); --cpu and --always-cpu move everything.
        const std::string v = lowercase(f.value);
        if (f.name != "--use-cpu" || v.find("all") != std::string::npos || v.find("sd") != std::string::npos) s_.runsOnCpu = true;
        legacyManager_ = legacyManager_ || f.name == "--cpu";
        if (f.name == "--use-cpu" && (v.find("controlnet") != std::string::npos || v.find("all") != std::string::npos)) {
          s_.controlnetOnCpu = true;
        }
        break;
      }
    }
    return FlagChoice::Other;
  }

  // ComfyUI's default manager where the job says which release runs it (cli_args.py enables_dynamic_vram, main.py).
  bool dynamicByDefault() const {
    const auto since = ReleaseVersion::parse(w_.comfyDynamicVramSince);
    return s_.tool == WebUiTool::ComfyUi && s_.comfyRelease && s_.comfyDynamicVramCard && !legacyManager_ && since &&
           *s_.comfyRelease >= *since;
  }

  FlagChoice loadMode(LoadMode mode) {
    s_.loadMode = mode;
    return FlagChoice::LoadMode;
  }

  GenerationSetup& s_;
  const WebUiKnowledge& w_;
  bool sawMedvram_ = false;
  bool dynamicVram_ = false;
  bool legacyManager_ = false;  // a flag that runs ComfyUI's older manager even where dynamic VRAM is the default
};

class SetupReader {
 public:
  SetupReader(const WebUiInput& input, const WebUiKnowledge& webui, const Architectures& architectures)
      : in_(input), w_(webui), architectures_(architectures) {}

  GenerationSetup read() {
    readTool();
    readFamily();
    if (!s_.estimable()) return s_;
    readSize();
    readHires();
    readControlNets();
    readVae();
    readSettings();
    // ComfyUI's and Forge's own loaders pick the dtypes by the card, unless a flag chooses.
    s_.unetDtypeByTool = s_.vaeDtypeByTool = s_.tool == WebUiTool::ComfyUi || s_.tool == WebUiTool::Forge;
    FlagReader(s_, w_).read(in_.flags);
    finish();
    return s_;
  }

 private:
  const Node* profile(std::string_view key) const { return in_.generation ? in_.generation->find(key) : nullptr; }

  void problem(Range at, KeyPath path, std::string message) {
    s_.problems.push_back({at, std::move(path), std::move(message)});
  }
  void settingProblem(const Node* at, KeyPath path, std::string message) {
    problem(at ? at->range : Range{}, std::move(path), std::move(message));
  }

  void readTool() {
    if (const Node* tool = profile("tool")) {
      if (tool->isScalar() && parseWebUiTool(tool->resolved()->text, s_.tool)) {
        return;
      }
      settingProblem(tool, KeyPath::of({"generation", "tool"}), "unknown tool `" + (tool->isScalar() ? tool->resolved()->text : std::string("…")) +
                                                  "`: one of a1111, forge, comfyui");
    }
    if (in_.commandTool) {
      s_.tool = *in_.commandTool;
      return;
    }
    if (const InfoField* version = findInfo(in_, "Version"); version && version->value.starts_with("f")) {
      s_.tool = WebUiTool::Forge;  // Forge writes "Version: f2.0.1v1.10.1-…"
      return;
    }
    // Flags that exist in one tool only name it.
    for (const auto& f : in_.flags) {
      const WebUiFlag* known = w_.flag(f.name);
      if (known == nullptr || known->tools.size() != 1) continue;
      parseWebUiTool(known->tools.front(), s_.tool);
      if (s_.tool != WebUiTool::A1111) return;
    }
  }

  void readFamily() {
    const Node* at = profile("model");
    const InfoField* model = findInfo(in_, "Model");
    s_.modelRange = at ? at->range : model ? model->range : Range{};
    if (at != nullptr && at->isScalar()) {
      const std::string name = at->resolved()->text;
      s_.family = w_.family(name);
      if (s_.family == nullptr) {
        std::vector<std::string> ids;
        for (const auto& f : w_.families) ids.push_back(f.id);
        std::string message = "unknown model family `" + name + "`: one of";
        for (const auto& id : ids) message += " " + id;
        if (auto near = closestMatch(lowercase(name), ids)) message += "; did you mean `" + *near + "`?";
        settingProblem(at, KeyPath::of({"generation", "model"}), message);
        return;
      }
    } else if (model != nullptr) {
      // A checkpoint name: its family from the usual naming (rules/webui.yaml checkpoint_families).
      s_.family = w_.family(w_.checkpointFamily(lowercase(model->value)));
    } else {
      s_.family = w_.family("sd15");
      s_.familyAssumed = true;
    }
    if (s_.family) {
      s_.arch = architectures_.byId(s_.family->arch);
      if (s_.arch == nullptr) s_.family = nullptr;
    }
  }

  long positiveInt(const Node* node, KeyPath path, long low, long high) {
    if (node == nullptr) return 0;
    if (!node->isNumber() || node->number() != std::floor(node->number()) || node->number() < low || node->number() > high) {
      std::string message = "`" + std::string(path.lastKey()) + "` is a whole number from " + std::to_string(low) +
                            " to " + std::to_string(high);
      settingProblem(node, std::move(path), std::move(message));
      return 0;
    }
    return static_cast<long>(node->number());
  }

  void readSize() {
    s_.width = s_.height = s_.family->defaultSize;
    if (const InfoField* size = findInfo(in_, "Size")) {
      if (const auto wh = sizePair(size->value); wh && wh->first >= 64 && wh->second >= 64 && wh->first <= 16384 && wh->second <= 16384) {
        s_.width = wh->first;
        s_.height = wh->second;
      }
    }
    if (long w = positiveInt(profile("width"), KeyPath::of({"generation", "width"}), 64, 16384)) s_.width = w;
    if (long h = positiveInt(profile("height"), KeyPath::of({"generation", "height"}), 64, 16384)) s_.height = h;
    if (long b = positiveInt(profile("batch_size"), KeyPath::of({"generation", "batch_size"}), 1, 256)) s_.batchSize = static_cast<int>(b);
    positiveInt(profile("batch_count"), KeyPath::of({"generation", "batch_count"}), 1, 100000);  // runs one batch at a time: no memory
  }

  void readHires() {
    if (const InfoField* scale = findInfo(in_, "Hires upscale")) s_.hiresScale = std::atof(scale->value.c_str());
    if (const InfoField* resize = findInfo(in_, "Hires resize")) {  // a target size instead of a factor
      if (const auto wh = sizePair(resize->value); wh && wh->first > 0 && s_.width > 0) {
        s_.hiresScale = static_cast<double>(wh->first) / static_cast<double>(s_.width);
      }
    }
    if (const InfoField* upscaler = findInfo(in_, "Hires upscaler")) s_.hiresLatent = lowercase(upscaler->value).starts_with("latent");
    if (const Node* hires = profile("hires")) {
      if (!hires->isMapping()) return settingProblem(hires, KeyPath::of({"generation", "hires"}), "`hires` is a mapping: {scale: 2, upscaler: latent}");
      if (const Node* scale = hires->find("scale")) {
        if (scale->isNumber() && scale->number() >= 1 && scale->number() <= 8) s_.hiresScale = scale->number();
        else settingProblem(scale, KeyPath::of({"generation", "hires", "scale"}), "`hires.scale` is the upscale factor, from 1 to 8");
      }
      if (const Node* upscaler = hires->find("upscaler"); upscaler && upscaler->isScalar()) {
        s_.hiresLatent = lowercase(upscaler->resolved()->text).starts_with("latent");
      }
    }
    if (s_.hiresScale < 1.0 || s_.hiresScale > 8.0) s_.hiresScale = 0;
  }

  void addUnit(std::string name, bool lowVram, const std::string& module) {
    ControlNetUnit unit;
    unit.model = w_.controlnet(name, s_.family->id);
    unit.name = std::move(name);
    unit.lowVram = lowVram;
    if (!module.empty()) unit.preprocessor = w_.preprocessor(module);
    s_.controlnets.push_back(std::move(unit));
  }

  void readControlNets() {
    // The parameters block: `ControlNet 0: "Module: canny, Model: control_v11p_sd15_canny [d14c016b], …, Low Vram: False, …"`.
    for (const auto& field : in_.info) {
      if (!field.key.starts_with("ControlNet")) continue;
      const std::string v = field.value;
      auto part = [&](std::string_view key) -> std::string {
        const std::string lv = lowercase(v);
        const std::size_t at = lv.find(lowercase(key) + ": ");
        if (at == std::string::npos) return {};
        const std::size_t begin = at + key.size() + 2;
        const std::size_t end = v.find(", ", begin);
        return v.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
      };
      const std::string model = part("Model");
      std::string module = part("Module");
      if (module.empty()) module = part("preprocessor");
      if (!model.empty() && lowercase(model) != "none") addUnit(model, truthyText(part("Low Vram")), module);
    }
    const Node* list = profile("controlnet");
    if (list == nullptr) return;
    if (!list->isSequence()) {
      return settingProblem(list, KeyPath::of({"generation", "controlnet"}), "`controlnet` is a list of units: [{model: control_v11p_sd15_canny, low_vram: false}]");
    }
    s_.controlnets.clear();  // the profile describes the units it wants
    int index = 0;
    for (const Node* unit : list->resolved()->items) {
      const KeyPath path = KeyPath::of({"generation", "controlnet"}).item(static_cast<std::size_t>(index++));
      if (unit->isScalar()) {
        addUnit(unit->resolved()->text, false, "");
        continue;
      }
      const Node* model = unit->isMapping() ? unit->find("model") : nullptr;
      if (model == nullptr || !model->isScalar()) {
        settingProblem(unit, path, "a ControlNet unit names its `model` (control_v11p_sd15_canny, t2iadapter_…, control-lora-128…)");
        continue;
      }
      const Node* low = unit->find("low_vram");
      const Node* module = unit->find("preprocessor");
      addUnit(model->resolved()->text, low != nullptr && low->truthy(),
              module && module->isScalar() ? module->resolved()->text : std::string());
    }
  }

  void readVae() {
    const Node* vae = profile("vae");
    if (vae == nullptr) return;
    if (!vae->isMapping()) return settingProblem(vae, KeyPath::of({"generation", "vae"}), "`vae` is a mapping: {precision: fp16, decode: full, fp16_fix: false}");
    if (const Node* p = vae->find("precision"); p && p->isScalar()) {
      const std::string v = lowercase(p->resolved()->text);
      s_.vaeDtypeFlag = true;  // chosen: no card rule of ComfyUI's
      if (v == "fp32" || v == "float32") s_.fp32Vae = true;
      else if (v != "fp16" && v != "bf16" && v != "float16" && v != "bfloat16")
        settingProblem(p, KeyPath::of({"generation", "vae", "precision"}), "`vae.precision` is fp16, bf16 or fp32");
    }
    if (const Node* d = vae->find("decode"); d && d->isScalar()) {
      const std::string v = lowercase(d->resolved()->text);
      if (v == "tiled") s_.vaeDecode = VaeDecode::Tiled;
      else if (v == "taesd") s_.vaeDecode = VaeDecode::Taesd;
      else if (v == "cpu") s_.vaeDecode = VaeDecode::Cpu;
      else if (v != "full") settingProblem(d, KeyPath::of({"generation", "vae", "decode"}), "`vae.decode` is full, tiled, taesd or cpu");
    }
    if (const Node* fix = vae->find("fp16_fix")) s_.vaeFp16Fix = fix->truthy();
  }

  void readSettings() {
    if (const Node* b = profile("batch_cond_uncond")) s_.batchCondUncond = b->truthy();
    if (const Node* g = profile("gpu_weights_mb")) {
      if (g->isNumber() && g->number() > 0) s_.gpuWeightsBytes = g->number() * 1024 * 1024;
      else settingProblem(g, KeyPath::of({"generation", "gpu_weights_mb"}), "`gpu_weights_mb` is Forge's GPU Weights slider, in MB");
    }
  }

  void finish() {
    if (s_.attention.empty()) s_.attention = w_.defaultAttention(s_.tool);
    if (s_.medvramSdxlOnly && s_.family->id != "sdxl" && s_.offload == Offload::Medvram) {
      s_.offload = Offload::Normal;
      s_.offloadFlag = nullptr;
    }
    s_.vaeWithoutFp16 = s_.tool == WebUiTool::ComfyUi && w_.comfyVaeWithoutFp16(s_.arch->vae.family);
    if (s_.tool == WebUiTool::A1111 && s_.family->vaeFp16Overflows && !s_.vaeFp16Fix) {
      // The SDXL VAE NaNs in fp16; A1111 reverts it to fp32 after the first image (auto_vae_precision).
      s_.fp32Vae = true;
      s_.vaeFp32Fallback = true;
    }
  }

  const WebUiInput& in_;
  const WebUiKnowledge& w_;
  const Architectures& architectures_;
  GenerationSetup s_;
};

}  // namespace

void applyLaunchFlags(GenerationSetup& setup, const WebUiInput& launch, const WebUiKnowledge& webui) {
  FlagReader(setup, webui).read(launch.flags);
}

GenerationSetup setupGeneration(const WebUiInput& input, const WebUiKnowledge& webui, const Architectures& architectures) {
  return SetupReader(input, webui, architectures).read();
}

}  // namespace oomlint
