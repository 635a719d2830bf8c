#include "base/knowledge/comfyui.h"

#include <algorithm>
#include <utility>

#include "base/text/ascii.h"

namespace oomlint {

namespace {

constexpr std::pair<NodeRole, std::string_view> kNodeRoles[] = {
    {NodeRole::Checkpoint, "checkpoint"},
    {NodeRole::DiffusionModel, "diffusion_model"},
    {NodeRole::TextEncoder, "text_encoder"},
    {NodeRole::Vae, "vae"},
    {NodeRole::Lora, "lora"},
    {NodeRole::Controlnet, "controlnet"},
    {NodeRole::ControlnetApply, "controlnet_apply"},
    {NodeRole::Ipadapter, "ipadapter"},
    {NodeRole::ClipVision, "clip_vision"},
    {NodeRole::Latent, "latent"},
    {NodeRole::Sampler, "sampler"},
    {NodeRole::Scheduler, "scheduler"},
    {NodeRole::VaeDecode, "vae_decode"},
    {NodeRole::VaeDecodeTiled, "vae_decode_tiled"},
    {NodeRole::VaeEncode, "vae_encode"},
    {NodeRole::LatentUpscale, "latent_upscale"},
    {NodeRole::LatentUpscaleBy, "latent_upscale_by"},
    {NodeRole::UpscaleModel, "upscale_model"},
    {NodeRole::UpscaleWithModel, "upscale_with_model"},
    {NodeRole::LatentUpscaleModel, "latent_upscale_model"},
    {NodeRole::ImageScale, "image_scale"},
    {NodeRole::BlockSwap, "block_swap"},
    {NodeRole::ExtraModel, "extra_model"},
    {NodeRole::ReferenceLatent, "reference_latent"},
    {NodeRole::PassThrough, "pass_through"},
    {NodeRole::VariableSet, "variable_set"},
    {NodeRole::VariableGet, "variable_get"},
    {NodeRole::FeatureCache, "feature_cache"},
    {NodeRole::NoCost, "no_cost"},
};

}  // namespace

std::string_view toString(NodeRole role) {
  for (const auto& [r, name] : kNodeRoles) {
    if (r == role) return name;
  }
  return "no_cost";
}

std::optional<NodeRole> parseNodeRole(std::string_view text) {
  for (const auto& [r, name] : kNodeRoles) {
    if (name == text) return r;
  }
  return std::nullopt;
}

std::span<const KnowledgeText> NodeType::storageWidgets() const {
  static constexpr KnowledgeText kWeightDtype[] = {"weight_dtype"};
  return loader.dtypeWidgets.empty() ? std::span<const KnowledgeText>(kWeightDtype) : std::span<const KnowledgeText>(loader.dtypeWidgets);
}

std::optional<std::size_t> NodeType::widgetIndex(std::string_view name) const {
  const auto it = std::find(widgets.begin(), widgets.end(), name);
  if (it == widgets.end()) return std::nullopt;
  return static_cast<std::size_t>(it - widgets.begin());
}

namespace {

// Whether the name contains every `+`-joined part of one of the match strings.
bool matchesAny(const std::vector<KnowledgeText>& match, std::string_view lowercaseName) {
  return std::any_of(match.begin(), match.end(), [&](std::string_view m) {
    std::size_t from = 0;
    while (from <= m.size()) {
      const std::size_t plus = std::min(m.find('+', from), m.size());
      if (lowercaseName.find(std::string_view(m).substr(from, plus - from)) == std::string_view::npos) return false;
      from = plus + 1;
    }
    return true;
  });
}

}  // namespace

bool NameMatch::matches(std::string_view lowercaseName) const { return matchesAny(match, lowercaseName); }

bool SideModel::assumed() const { return std::find(match.begin(), match.end(), "") != match.end(); }

const SideModel* ComfyUiKnowledge::sideModel(NodeRole role, std::string_view lowercaseText) const {
  for (const auto& m : sideModels) {
    if (m.role == role && matchesAny(m.match, lowercaseText)) return &m;
  }
  return nullptr;
}

std::string bareFileName(std::string_view name) {
  const std::size_t slash = name.find_last_of("/\\");
  return lowercase(slash == std::string_view::npos ? name : name.substr(slash + 1));
}

const NodeType* ComfyUiKnowledge::node(std::string_view type) const {
  for (const auto& n : nodes) {
    if (n.type == type) return &n;
  }
  return nullptr;
}

const NameMatch* ComfyUiKnowledge::firstMatch(const std::vector<NameMatch>& table, std::string_view fileName) {
  const std::string bare = bareFileName(fileName);
  for (const auto& entry : table) {
    if (entry.matches(bare)) return &entry;
  }
  return nullptr;
}

const GgufQuant* ComfyUiKnowledge::ggufQuant(std::string_view fileName) const {
  const std::string bare = bareFileName(fileName);
  for (const auto& q : ggufQuants) {
    if (bare.find(q.name) != std::string::npos) return &q;
  }
  return nullptr;
}

namespace {

bool namesAny(std::string_view fileName, const std::vector<KnowledgeText>& marks) {
  const std::string bare = bareFileName(fileName);
  return std::any_of(marks.begin(), marks.end(), [&](std::string_view m) { return bare.find(m) != std::string::npos; });
}

}  // namespace

bool ComfyUiKnowledge::namesFp8(std::string_view fileName) const { return namesAny(fileName, fp8NameMarks); }

bool ComfyUiKnowledge::namesScaledFp8(std::string_view fileName) const {
  return namesFp8(fileName) && namesAny(fileName, fp8ScaledNameMarks);
}

}  // namespace oomlint
