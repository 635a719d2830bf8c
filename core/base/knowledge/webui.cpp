#include "base/knowledge/webui.h"

#include <algorithm>

#include "base/text/ascii.h"

namespace oomlint {

namespace {

bool contains(const std::vector<KnowledgeText>& list, std::string_view value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

constexpr std::pair<FlagEffect, std::string_view> kFlagEffects[] = {
    {FlagEffect::None, "none"},
    {FlagEffect::Medvram, "medvram"},
    {FlagEffect::MedvramSdxl, "medvram_sdxl"},
    {FlagEffect::Lowvram, "lowvram"},
    {FlagEffect::Attention, "attention"},
    {FlagEffect::NoHalf, "no_half"},
    {FlagEffect::PrecisionFull, "precision_full"},
    {FlagEffect::AllFp32, "all_fp32"},
    {FlagEffect::NoHalfVae, "no_half_vae"},
    {FlagEffect::VaeFp32, "vae_fp32"},
    {FlagEffect::VaeFp16, "vae_fp16"},
    {FlagEffect::VaeBf16, "vae_bf16"},
    {FlagEffect::Upcast, "upcast"},
    {FlagEffect::ForgeLowVram, "forge_low_vram"},
    {FlagEffect::ForgeNoVram, "forge_no_vram"},
    {FlagEffect::ComfyNoVram, "comfy_novram"},
    {FlagEffect::ComfyHighVram, "comfy_highvram"},
    {FlagEffect::ComfyGpuOnly, "comfy_gpu_only"},
    {FlagEffect::ComfyDynamicVram, "comfy_dynamic_vram"},
    {FlagEffect::ComfyDisableDynamicVram, "comfy_disable_dynamic_vram"},
    {FlagEffect::ForgeOffload, "forge_offload"},
    {FlagEffect::UnetFp8, "unet_fp8"},
    {FlagEffect::Unet16Bit, "unet_16bit"},
    {FlagEffect::ComfyFp8Compute, "comfy_fp8_compute"},
    {FlagEffect::ForceFp16, "force_fp16"},
    {FlagEffect::TextEncoderFp8, "text_encoder_fp8"},
    {FlagEffect::VaeCpu, "vae_cpu"},
    {FlagEffect::ComfyReserve, "comfy_reserve"},
    {FlagEffect::Cpu, "cpu"},
};

}  // namespace

std::string_view toString(WebUiTool tool) {
  switch (tool) {
    case WebUiTool::A1111: return "a1111";
    case WebUiTool::Forge: return "forge";
    case WebUiTool::ComfyUi: return "comfyui";
  }
  return "a1111";
}

std::string_view displayName(WebUiTool tool) {
  switch (tool) {
    case WebUiTool::A1111: return "AUTOMATIC1111";
    case WebUiTool::Forge: return "Forge";
    case WebUiTool::ComfyUi: return "ComfyUI";
  }
  return "AUTOMATIC1111";
}

bool parseWebUiTool(std::string_view text, WebUiTool& tool) {
  const std::string t = lowercase(text);
  if (t == "a1111" || t == "automatic1111" || t == "webui" || t == "sd-webui" || t == "stable-diffusion-webui") {
    tool = WebUiTool::A1111;
  } else if (t == "forge" || t == "sd-webui-forge" || t == "stable-diffusion-webui-forge") {
    tool = WebUiTool::Forge;
  } else if (t == "comfyui" || t == "comfy") {
    tool = WebUiTool::ComfyUi;
  } else {
    return false;
  }
  return true;
}

std::string_view toString(FlagEffect effect) {
  for (const auto& [e, name] : kFlagEffects) {
    if (e == effect) return name;
  }
  return "none";
}

std::optional<FlagEffect> parseFlagEffect(std::string_view text) {
  for (const auto& [e, name] : kFlagEffects) {
    if (name == text) return e;
  }
  return std::nullopt;
}

bool WebUiFlag::existsIn(WebUiTool tool) const { return contains(tools, toString(tool)); }
bool WebUiFlag::ignoredIn(WebUiTool tool) const { return contains(ignoredBy, toString(tool)); }
bool GenerationFamily::runsIn(WebUiTool tool) const { return contains(tools, toString(tool)); }

const WebUiFlag* WebUiKnowledge::flag(std::string_view name) const {
  for (const auto& f : flags) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

const AttentionBackend* WebUiKnowledge::backend(std::string_view id) const {
  for (const auto& b : attention) {
    if (b.id == id) return &b;
  }
  return nullptr;
}

const GenerationFamily* WebUiKnowledge::family(std::string_view nameOrAlias) const {
  const std::string wanted = lowercase(nameOrAlias);
  for (const auto& f : families) {
    if (f.id == wanted || contains(f.aliases, wanted)) return &f;
  }
  return nullptr;
}

const ControlNetModel* WebUiKnowledge::controlnet(std::string_view modelName, std::string_view family) const {
  // A family with no ControlNet in the data (Wan, HiDream): no size, whatever the name resembles.
  if (std::none_of(controlnets.begin(), controlnets.end(), [&](const ControlNetModel& c) { return c.family == family; })) return nullptr;
  const std::string name = lowercase(modelName);
  const ControlNetModel* any = nullptr;
  for (const auto& c : controlnets) {
    const bool matches = std::any_of(c.match.begin(), c.match.end(),
                                     [&](std::string_view m) { return name.find(m) != std::string::npos; });
    if (!matches) continue;
    if (c.family == family || c.family == "any") return &c;
    if (any == nullptr) any = &c;
  }
  if (any != nullptr) return any;
  // An unrecognised name: the family's full ControlNet, the conservative choice.
  for (const auto& c : controlnets) {
    if (c.family == family && c.id.ends_with("-controlnet")) return &c;
  }
  return nullptr;
}

const Preprocessor* WebUiKnowledge::preprocessor(std::string_view module) const {
  const std::string name = lowercase(module);
  for (const auto& p : preprocessors) {
    if (std::any_of(p.match.begin(), p.match.end(), [&](std::string_view m) { return name.find(m) != std::string::npos; })) {
      return &p;
    }
  }
  return nullptr;
}

int WebUiKnowledge::decoderTile(double vramBytes) const {
  const double gb = vramBytes / 1e9;
  for (const auto& [above, tile] : decoderTiles) {
    if (gb > above) return tile;
  }
  return decoderTileOtherwise;
}

std::string_view WebUiKnowledge::checkpointFamily(std::string_view lowercaseName) const {
  for (const auto& [family, substrings] : checkpointFamilies) {
    for (const auto& sub : substrings) {
      if (lowercaseName.find(sub) != std::string_view::npos) return family;
    }
  }
  return checkpointFamilyOtherwise;
}

const VaeResnetStyle* WebUiKnowledge::vaeResnetStyle(std::string_view id) const {
  for (const auto& style : vaeResnetStyles) {
    if (style.id == id) return &style;
  }
  return nullptr;
}

bool WebUiKnowledge::comfyVaeWithoutFp16(std::string_view vaeFamily) const {
  return std::find(comfyVaeFamiliesWithoutFp16.begin(), comfyVaeFamiliesWithoutFp16.end(), vaeFamily) != comfyVaeFamiliesWithoutFp16.end();
}

bool WebUiKnowledge::fp16BrokenCard(std::string_view name) const {
  return std::find(comfyFp16BrokenCards.begin(), comfyFp16BrokenCards.end(), name) != comfyFp16BrokenCards.end();
}

bool WebUiKnowledge::managerWithoutFp16(std::string_view name, double computeCapability) const {
  return (computeCapability > 0 && computeCapability < comfyFp16OnLinuxSinceCapability) || fp16BrokenCard(name);
}

double WebUiKnowledge::vaeDecodeBytesPerPixel(WebUiTool tool) const {
  const VaeResnetStyle* style = vaeResnetStyle(vaeResnetStyleByTool[static_cast<std::size_t>(tool)]);
  if (style == nullptr) return 0;  // the loader checks every tool's style
  double peak = 0;
  const VaeDecoderStage* previous = nullptr;
  for (const auto& stage : vaeDecoderStages) {
    const double share = 1.0 / stage.areaDivisor;
    for (const auto& [inputMaps, outputMaps] : style->live) {
      peak = std::max(peak, (inputMaps * stage.channelsIn + outputMaps * stage.channelsOut) * share);
    }
    // The ×2 upsample into this stage: its coarse input beside the interpolated map and the conv's output.
    if (previous != nullptr && previous->areaDivisor > stage.areaDivisor) {
      peak = std::max(peak, previous->channelsOut * (1.0 / previous->areaDivisor + 2 * share));
    }
    previous = &stage;
  }
  return peak;
}

}  // namespace oomlint
