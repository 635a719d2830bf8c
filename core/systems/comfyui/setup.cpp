#include "systems/comfyui/setup.h"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <unordered_set>

#include "base/text/ascii.h"
#include "report/estimate.h"
#include "systems/comfyui/block_swap.h"

namespace oomlint {

namespace {

bool isRole(const WorkflowNode* n, std::initializer_list<NodeRole> roles) {
  return n != nullptr && n->known != nullptr && std::find(roles.begin(), roles.end(), n->known->role) != roles.end();
}

// The node reached from `start` by following, at each node, the first of `inputs` it has, until one of
// `roles` (or Workflow::kMaxHops: a graph has no cycles, but a hand-edited file may).
const WorkflowNode* trace(const Workflow& w, const WorkflowNode* start, std::initializer_list<std::string_view> inputs,
                          std::initializer_list<NodeRole> roles, std::vector<const WorkflowNode*>* path = nullptr) {
  const WorkflowNode* at = start;
  for (std::size_t hops = 0; at != nullptr && hops < Workflow::kMaxHops; ++hops) {
    const WorkflowNode* next = nullptr;
    for (std::string_view input : inputs) {
      if ((next = w.upstream(*at, input)) != nullptr) break;
    }
    if (next == nullptr || isRole(next, roles)) return next;
    if (path) path->push_back(next);
    at = next;
  }
  return nullptr;
}

// Every node upstream of `from` (reachable through its links), each visited once.
std::unordered_set<const WorkflowNode*> upstreamOf(const Workflow& w, const WorkflowNode& from) {
  std::unordered_set<const WorkflowNode*> seen;
  std::vector<const WorkflowNode*> todo{&from};
  while (!todo.empty()) {
    const WorkflowNode* at = todo.back();
    todo.pop_back();
    for (const NodeLink& link : at->links) {
      const WorkflowNode* up = w.upstream(*at, link.input);
      if (up != nullptr && seen.insert(up).second) todo.push_back(up);
    }
  }
  return seen;
}

const WorkflowNode* firstActive(const Workflow& w, std::initializer_list<NodeRole> roles) {
  for (const auto& n : w.nodes) {
    if (n.active() && isRole(&n, roles)) return &n;
  }
  return nullptr;
}

// The file a loader loads (its first widget or input that names a file).
const NodeValue* fileNameOf(const WorkflowNode& n) {
  for (std::string_view name : {"ckpt_name", "unet_name", "clip_name", "clip_name1", "vae_name", "control_net_name", "controlnet_path", "model_name",
                                "model", "llm_model", "vace_model", "name"}) {
    if (const NodeValue* v = n.value(name); v && v->value->isScalar() && v->value->resolved()->type == ScalarType::String) return v;
  }
  return nullptr;
}

std::vector<std::string> textEncoderFiles(const WorkflowNode& n) {
  std::vector<std::string> out;
  for (const auto& v : n.values) {
    const bool file = v.name.starts_with("clip_name") || v.name == "text_encoder" || v.name == "model_name" || v.name == "llm_model";
    if (file && v.value->isScalar() && v.value->resolved()->type == ScalarType::String) out.push_back(v.value->resolved()->text);
  }
  return out;
}

class SetupBuilder {
 public:
  // Samplers whose inputs are traced: real workflows have a few (two passes, two experts); a file with
  // thousands must not make the setup quadratic.
  static constexpr std::size_t kMaxSamplers = 64;

  SetupBuilder(const Workflow& w, const ComfyUiKnowledge& c, const WebUiKnowledge& webui, const Architectures& archs)
      : w_(w), c_(c), webui_(webui), archs_(archs) {}

  std::unique_ptr<WorkflowSetup> build() {
    auto s = std::make_unique<WorkflowSetup>();
    s->generation.tool = WebUiTool::ComfyUi;
    s->generation.attention = webui_.defaultAttention(WebUiTool::ComfyUi);
    findStages(*s);
    const bool estimable = identifyFamily(*s);
    if (estimable) {
      extraModels(*s);
      wholeModelSampler(*s);
      wrapperPlacement(*s);
      guidance(*s);
      weights(*s);
      otherDiffusionModels(*s);
      size(*s);
      references(*s);
      secondPass(*s);
      latentModelUpscale(*s);
      decode(*s);
      vaePrecision(*s);
      controlnets(*s);
      sideModels(*s);
      featureCaches(*s);
      modelUpscale(*s);
      mismatches(*s);
    }
    listNotCosted(*s);
    return s;
  }

 private:
  void listNotCosted(WorkflowSetup& s) const {
    for (const auto& n : w_.nodes) {
      if (!n.active() || std::find(costed_.begin(), costed_.end(), &n) != costed_.end()) continue;
      if (n.known != nullptr && n.known->gpuOverFrames) {
        const auto feeding = upstreamOf(w_, n);
        if (std::any_of(feeding.begin(), feeding.end(), [](const WorkflowNode* up) { return up->known != nullptr && up->known->videoSource; })) {
          s.notCosted.push_back(&n);
        }
        continue;
      }
      if (n.known == nullptr ||
          isRole(&n, {NodeRole::Controlnet, NodeRole::Ipadapter, NodeRole::ClipVision, NodeRole::UpscaleModel, NodeRole::UpscaleWithModel,
                      NodeRole::LatentUpscaleModel, NodeRole::ExtraModel})) {
        s.notCosted.push_back(&n);
      }
    }
  }

  // Feature caches that patch the model (rules/comfyui.yaml's feature_cache nodes): the token maps each keeps while
  // the sampler runs, for every order of its expansion where a widget sets the highest.
  void featureCaches(WorkflowSetup& s) {
    GenerationSetup& g = s.generation;
    for (const auto& n : w_.nodes) {
      if (!n.active() || !isRole(&n, {NodeRole::FeatureCache})) continue;
      double maps = n.known->cacheTokenMaps;
      if (!n.known->cacheMapsWidget.empty()) {
        const std::string model = n.text(n.known->cacheMapsWidget);
        for (const auto& [value, byValue] : n.known->cacheMapsByValue) {
          if (value == model) maps = byValue;
        }
      }
      if (!n.known->cacheOrdersWidget.empty()) {
        const double order = n.number(n.known->cacheOrdersWidget).value_or(n.known->cacheOrdersDefault);
        maps *= std::clamp(order, 0.0, 16.0) + 1;
      }
      g.cachedTokenMaps += maps;
      if (&n == s.blockMover) s.blockMoverCachedMaps = maps;
      g.featureCache += (g.featureCache.empty() ? "" : ", ") + n.type;
      costed_.push_back(&n);
    }
  }

  static SideWeights weightsOf(const SideModel& m) { return {m.label, m.weightBytes(), m.assumed()}; }

  // The side model a loader loads: its file's name in side_models under the role (an unknown name: the role's catch-all).
  const SideModel* sideModelOf(const WorkflowNode& loader, NodeRole role) const {
    const NodeValue* file = fileNameOf(loader);
    return c_.sideModel(role, file ? bareFileName(file->value->resolved()->text) : "");
  }

  // CLIP vision encoders and IP-Adapters (rules/comfyui.yaml side_models). An IP-Adapter is matched on the
  // family and its file or preset ("sdxl plus (high strength)"); a preset loader loads its vision encoder too.
  void sideModels(WorkflowSetup& s) {
    GenerationSetup& g = s.generation;
    // A CLIP vision model the architecture's encoders include (Wan 2.1 I2V's ViT-H) is costed with them.
    const bool archHasVision = std::any_of(s.arch.textEncoders.begin(), s.arch.textEncoders.end(),
                                           [](const TextEncoder& te) { return te.name.find("vision") != std::string::npos; });
    for (const auto& n : w_.nodes) {
      if (!n.active()) continue;
      if (isRole(&n, {NodeRole::ClipVision})) {
        const SideModel* m = sideModelOf(n, NodeRole::ClipVision);
        if (m != nullptr && !archHasVision) g.clipVision.push_back(weightsOf(*m));
        if (m != nullptr) costed_.push_back(&n);
      } else if (isRole(&n, {NodeRole::Ipadapter})) {
        // IPAdapterUnifiedLoader's preset, else the file: cubiq's, the InstantX loaders', XLabs' (its spelling).
        const NodeValue* preset = n.value("preset");
        const NodeValue* file = preset;
        for (const char* name : {"ipadapter_file", "ipadapter", "ipadatper"}) {
          if (file == nullptr) file = n.value(name);
        }
        if (file == nullptr || !file->value->isScalar()) continue;
        if (const NodeValue* provider = n.value("provider"); provider && provider->value->isScalar() && provider->value->resolved()->text == "cpu") {
          costed_.push_back(&n);  // the InstantX loaders keep it on the CPU: nothing on the GPU
          continue;
        }
        const std::string text = lowercase(n.type + " " + g.family->id + " " + file->value->resolved()->text);
        const SideModel* m = c_.sideModel(NodeRole::Ipadapter, text);
        if (m == nullptr) continue;  // an adapter oomlint has no size for: listed as not costed
        g.ipadapters.push_back(weightsOf(*m));
        if (preset != nullptr) {
          if (const SideModel* vision = c_.sideModel(NodeRole::ClipVision, text)) g.clipVision.push_back(weightsOf(*vision));
        }
        costed_.push_back(&n);
      }
    }
  }

  // ImageUpscaleWithModel on the decoded image: the model its loader names, the image it gets (the first
  // pass's when it feeds the second pass, else the final one).
  void modelUpscale(WorkflowSetup& s) {
    GenerationSetup& g = s.generation;
    for (const auto& n : w_.nodes) {
      if (!n.active() || !isRole(&n, {NodeRole::UpscaleWithModel})) continue;
      const WorkflowNode* loader = w_.upstream(n, "upscale_model");
      const SideModel* m = upscaleModelOf(n);
      if (m == nullptr) continue;
      ModelUpscale& u = g.upscale;
      u = {weightsOf(*m), m->scale, m->bytesPerInputPixel, g.width, g.height, false, c_.upscaleTile, c_.upscaleSmallestTile};
      u.beforeHires = std::find(secondPassPath_.begin(), secondPassPath_.end(), &n) != secondPassPath_.end();
      if (!u.beforeHires && g.hiresScale > 1.0) {
        u.width = std::lround(static_cast<double>(g.width) * g.hiresScale);
        u.height = std::lround(static_cast<double>(g.height) * g.hiresScale);
      }
      costed_.push_back(&n);
      costed_.push_back(loader);
      return;  // one model upscale is costed: a second would run on an image oomlint cannot size
    }
  }

  // The model an ImageUpscaleWithModel runs: its loader's file in side_models (an unknown name: the
  // role's catch-all), or nullptr when no upscale-model loader feeds it.
  const SideModel* upscaleModelOf(const WorkflowNode& upscale) const {
    const WorkflowNode* loader = w_.upstream(upscale, "upscale_model");
    if (!isRole(loader, {NodeRole::UpscaleModel})) return nullptr;
    return sideModelOf(*loader, NodeRole::UpscaleModel);
  }

  // The sampler of the first pass (its latent comes from a latent node, not an upscale), its model and latent.
  void findStages(WorkflowSetup& s) const {
    const WorkflowNode* fallback = nullptr;
    std::size_t samplers = 0;
    for (const auto& n : w_.nodes) {
      if (!n.active() || !isRole(&n, {NodeRole::Sampler})) continue;
      if (++samplers > kMaxSamplers) break;
      if (fallback == nullptr) fallback = &n;
      std::vector<const WorkflowNode*> path;
      const WorkflowNode* latent =
          trace(w_, &n, {"latent_image", "latent", "samples", "video_latent", "image_embeds"}, {NodeRole::Latent, NodeRole::Sampler}, &path);
      if (isRole(latent, {NodeRole::Latent}) && !passesUpscale(path)) {
        s.sampler = &n;
        s.latent = latent;
        s.generation.packedLatent = std::any_of(path.begin(), path.end(), [](const WorkflowNode* p) { return p->known && p->known->packsLatents; });
        break;
      }
    }
    if (s.sampler == nullptr) s.sampler = fallback;
    // A noise mask anywhere (image-to-video, guides) gives per-token timesteps; with several passes, any counts.
    s.generation.noiseMask = std::any_of(w_.nodes.begin(), w_.nodes.end(),
                                         [](const WorkflowNode& n) { return n.active() && n.known && n.known->noiseMask; });
    // A wrapper's sampler that takes the size itself (HyVideoSampler, MochiSampler) is its own latent node.
    if (s.latent == nullptr && s.sampler != nullptr && s.sampler->value("width") != nullptr) s.latent = s.sampler;
    if (s.latent == nullptr) s.latent = firstActive(w_, {NodeRole::Latent});
    const std::initializer_list<NodeRole> loaders = {NodeRole::Checkpoint, NodeRole::DiffusionModel};
    if (s.sampler) s.model = trace(w_, s.sampler, {"model", "guider"}, loaders);
    if (s.model == nullptr) s.model = firstActive(w_, loaders);
    if (s.model) s.modelName = fileNameOf(*s.model);
  }

  // A sampler that moves the whole diffusion model onto the GPU itself (comfyui.yaml's whole_model), else a node that
  // patches the model to (whole_model_widget: TaylorSeer's block swap with nothing swapped), which the plan can bypass.
  // Runs before featureCaches(), which notes the patch node's cache (blockMoverCachedMaps).
  void wholeModelSampler(WorkflowSetup& s) const {
    for (const auto& n : w_.nodes) {
      if (n.active() && isRole(&n, {NodeRole::Sampler}) && n.known->wholeModel) {
        s.generation.wholeModelSampler = n.type;
        return;
      }
    }
    for (const auto& n : w_.nodes) {
      if (!n.active() || n.known == nullptr) continue;
      const NodeType& t = *n.known;
      if (t.wholeModelWidget.empty() || (!t.wholeModelUnlessLinked.empty() && w_.upstream(n, t.wholeModelUnlessLinked) != nullptr)) continue;
      const std::string value = n.text(t.wholeModelWidget);
      if (std::find(t.wholeModelValues.begin(), t.wholeModelValues.end(), value) != t.wholeModelValues.end()) {
        s.generation.wholeModelSampler = n.type + " (" + t.wholeModelWidget + " " + value + ")";
        s.blockMover = &n;
        return;
      }
    }
  }

  // A module a wrapper's loader adds to its model (WanVideoWrapper's VACE module, side_models' extra_model): its
  // parameters join the model's, stored as the model is; each of its blocks keeps a map of the tokens (a hint)
  // through the forward.
  void extraModels(WorkflowSetup& s) {
    for (const NodeLink& link : s.model->links) {
      const WorkflowNode* module = w_.upstream(*s.model, link.input);
      if (!isRole(module, {NodeRole::ExtraModel})) continue;
      const WorkflowNode& n = *module;
      const SideModel* m = sideModelOf(n, NodeRole::ExtraModel);
      if (m == nullptr) continue;  // listed as not costed
      s.arch.denoiser.params += m->params;
      s.label += " + " + m->label;
      s.generation.persistentTokenMaps = m->blocks;
      extraModule_ = m;
      costed_.push_back(&n);
      return;  // one module: the loader takes one
    }
  }

  // What a node pack that places the model itself keeps on the GPU (rules/comfyui.yaml's wrapper fields): the
  // model from its load on, a dense attention mask, the blocks its block swap keeps in RAM, its guidance batching.
  void wrapperPlacement(WorkflowSetup& s) {
    GenerationSetup& g = s.generation;
    const PackLoader& loader = s.model->known->loader;
    s.packPlacesModel = loader.onGpuFromLoad || !loader.loadDeviceWidget.empty();
    g.modelOnGpuFromLoad = loader.onGpuFromLoad || (!loader.loadDeviceWidget.empty() && s.model->text(loader.loadDeviceWidget) == "main_device");
    const auto& masked = loader.maskedAttentionModes;
    g.denseAttentionMask = std::find(masked.begin(), masked.end(), s.model->text("attention_mode")) != masked.end();
    if (s.sampler->known->sequentialGuidance) g.guidanceBatched = s.sampler->flag("batched_cfg").value_or(false);
    g.olderBlockBytesPerTokenChannel = s.sampler->known->olderBlockBytesPerTokenChannel;
    g.olderBlockReleases = s.sampler->known->olderBlockReleases;
    // The pack's encode nodes move their whole encoder in; a loader that waits on all of them (an input linked from the
    // last: MochiWrapper's trigger, "for forcing execution order") loads its model after they ran.
    const auto beforeLoader = upstreamOf(w_, *s.model);
    bool encodesFeedLoader = true;
    for (const auto& n : w_.nodes) {
      if (!n.active() || n.known == nullptr || !n.known->wholeModel || isRole(&n, {NodeRole::Sampler})) continue;
      g.textEncoderWhole = true;
      encodesFeedLoader = encodesFeedLoader && beforeLoader.contains(&n);
    }
    g.modelLoadsAfterEncodes = g.modelOnGpuFromLoad && g.textEncoderWhole && encodesFeedLoader;
    // The settings the loader takes, else a block-swap node set on the model later (WanVideoSetBlockSwap).
    const WorkflowNode* swap = w_.upstream(*s.model, "block_swap_args");
    if (!isRole(swap, {NodeRole::BlockSwap})) swap = firstActive(w_, {NodeRole::BlockSwap});
    if (swap == nullptr) return;
    costed_.push_back(swap);
    s.blockSwap = swap;
    const BlockSwap blocks(*swap, s.arch.denoiser, extraModule_);
    const SwappedBlocks now = blocks.now();
    s.swapMost = blocks.most();
    s.swapAllParams = blocks.atMost().params;
    if (now.blocks == 0) return;
    g.swappedParams = now.params;
    g.blockSwap = swap->type + ": " + std::to_string(now.blocks) + " blocks in RAM, " + fixedText(now.inFlight, 0) + " on the GPU at a time";
    g.persistentTokenMaps = 0;  // with a block swap the VACE hints are made on the offload device (WanVideoWrapper)
  }

  // The first pass's cfg, written on its sampler or on the guider SamplerCustomAdvanced takes (CFGGuider's), and the
  // conds that guider runs per step where it says (DualCFGGuider's three).
  void guidance(WorkflowSetup& s) const {
    const WorkflowNode* guider = w_.upstream(*s.sampler, "guider");
    if (guider && guider->known && guider->known->guidanceConds > 0) s.generation.guidanceConds = guider->known->guidanceConds;
    const NodeValue* cfg = s.sampler->value("cfg");
    if (cfg == nullptr && guider) cfg = guider->value("cfg");
    if (cfg == nullptr || !cfg->value->isNumber()) return;
    s.generation.unconditionalPass = std::abs(cfg->value->number() - 1.0) > 1e-9;  // math.isclose(cfg, 1.0)
  }

  static bool passesUpscale(const std::vector<const WorkflowNode*>& path) {
    return std::any_of(path.begin(), path.end(), [](const WorkflowNode* n) {
      return isRole(n, {NodeRole::LatentUpscale, NodeRole::LatentUpscaleBy, NodeRole::ImageScale, NodeRole::UpscaleWithModel, NodeRole::VaeEncode});
    });
  }

  bool identifyFamily(WorkflowSetup& s) const {
    if (s.model == nullptr || s.sampler == nullptr || s.modelName == nullptr) return false;
    const std::string& name = s.modelName->value->resolved()->text;
    const GenerationFamily* family = nullptr;
    const Architecture* arch = nullptr;
    if (const NameMatch* own = ComfyUiKnowledge::firstMatch(c_.generationModels, name)) {
      // A model with its own entry (rules/comfyui.yaml generation_models / generation_archs): first, as the WebUI
      // families' names are contained in some of theirs ("flux2_dev" has "flux").
      const auto i = static_cast<std::size_t>(own - c_.generationModels.data());
      family = &c_.generationFamilies[i];
      arch = &c_.generationArchitectures[i];
    } else if (const NameMatch* match = ComfyUiKnowledge::firstMatch(c_.modelFamilies, name)) {
      family = webui_.family(match->value);
    } else if (const NameMatch* unmodelled = ComfyUiKnowledge::firstMatch(c_.unmodelledFamilies, name)) {
      s.unmodelledFamily = unmodelled->value;
      return false;
    } else if (const WorkflowNode* te = firstActive(w_, {NodeRole::TextEncoder});
               te != nullptr && ComfyUiKnowledge::firstMatch(c_.modelFamilies, te->text("type")) != nullptr) {
      // A diffusion model's name may say nothing; its text encoder's `type` does ("flux", "sd3", "qwen_image").
      family = webui_.family(ComfyUiKnowledge::firstMatch(c_.modelFamilies, te->text("type"))->value);
    } else if (s.latent != nullptr && !s.latent->known->family.empty()) {
      // Or the latent node, where only one family uses it (EmptyLTXVLatentVideo, Wan22ImageToVideoLatent).
      std::tie(family, arch) = familyById(s.latent->known->family);
    }
    if (family == nullptr && isRole(s.model, {NodeRole::Checkpoint})) family = webui_.family(webui_.checkpointFamily(bareFileName(name)));
    if (family != nullptr && arch == nullptr) arch = archs_.byId(family->arch);
    if (arch == nullptr) return false;
    s.arch = *arch;
    if (const ArchVariant* variant = arch->variantFor(bareFileName(name))) {
      s.arch.denoiser = variant->denoiser;
      s.arch.label = variant->label;
    }
    s.label = s.arch.label;
    // Switched experts (Wan 2.2 A14B) are two loaders in ComfyUI, each model loaded for its own sampler.
    if (s.arch.denoiser.experts > 1) {
      s.arch.denoiser.params /= s.arch.denoiser.experts;
      s.arch.denoiser.experts = 1;
    }
    s.generation.family = family;
    s.generation.arch = &s.arch;
    return true;
  }

  // A family id of rules/webui.yaml, or one of generation_models with its own architecture.
  std::pair<const GenerationFamily*, const Architecture*> familyById(const std::string& id) const {
    for (std::size_t i = 0; i < c_.generationFamilies.size(); ++i) {
      if (c_.generationFamilies[i].id == id) return {&c_.generationFamilies[i], &c_.generationArchitectures[i]};
    }
    return {webui_.family(id), nullptr};
  }

  // A diffusion-model loader's bytes per parameter: its GGUF quantization (set in `gguf`), its storage widget, or what
  // its file's name says.
  double loaderBytesPerParam(const WorkflowNode& loader, const std::string& name, const GgufQuant*& gguf) const {
    double bytes = c_.namesFp8(name) ? 1 : 2;
    // A wrapper's loader takes a GGUF file too (MochiWrapper's names say "GGUF" before their quantization).
    if (loader.known->gguf || bareFileName(name).find("gguf") != std::string::npos) {
      if ((gguf = c_.ggufQuant(name))) bytes = gguf->bits / 8;
    } else if (const auto [dtype, dtypeBytes] = storage(loader); dtype != nullptr) {
      bytes = dtypeBytes;
    }
    return bytes;
  }

  void weights(WorkflowSetup& s) const {
    const std::string& name = s.modelName->value->resolved()->text;
    const double bytes = loaderBytesPerParam(*s.model, name, s.gguf);
    // The value an fp8 lever writes: the loader's first dtype widget (weight_dtype, a wrapper's quantization).
    if (s.gguf == nullptr) s.weightDtype = s.model->value(s.model->known->storageWidgets().front());
    s.generation.unetFp8 = bytes == 1;
    // ComfyUI's own loader with the dtype left to it (a pack's builds its model itself; GGUF and scaled fp8 stay quantized).
    s.generation.packModel = s.packPlacesModel;
    s.generation.unetDtypeByTool = s.gguf == nullptr && !s.packPlacesModel && storage(*s.model).first == nullptr &&
                                    !(s.generation.unetFp8 && c_.namesScaledFp8(name));
    // Q8_0 is 1.06 bytes, Q4_0 0.56, a wrapper's fp32 base precision 4: neither fp8 nor 16-bit
    if (bytes != 1 && bytes != 2) s.generation.unetBytesPerParam = bytes;
    // Text encoders: the loaders' files where the workflow has any (LTX-2's Gemma beside its checkpoint); else a
    // checkpoint carries its own, stored as the checkpoint is.
    if (isRole(s.model, {NodeRole::Checkpoint}) && firstActive(w_, {NodeRole::TextEncoder}) == nullptr) {
      s.generation.textEncoderFp8 = bytes == 1;
      return;
    }
    std::vector<std::string> files;
    bool gguf = false;
    for (const auto& n : w_.nodes) {
      if (!n.active() || !isRole(&n, {NodeRole::TextEncoder})) continue;
      for (auto& f : textEncoderFiles(n)) files.push_back(f);
      gguf |= n.known->gguf;
    }
    if (files.empty()) return;
    // The largest encoder decides (T5 / umT5 / an LLM beside a small CLIP): its file's format, or its loader's storage.
    const std::string big = pickLargest(files);
    if (const GgufQuant* q = gguf ? c_.ggufQuant(big) : nullptr) {
      s.generation.textEncoderBytesPerParam = q->bits / 8;
    } else {
      s.generation.textEncoderFp8 = c_.namesFp8(big);
      for (const auto& n : w_.nodes) {
        if (!n.active() || !isRole(&n, {NodeRole::TextEncoder})) continue;
        const auto own = textEncoderFiles(n);
        if (std::find(own.begin(), own.end(), big) == own.end()) continue;
        if (const auto [dtype, dtypeBytes] = storage(n); dtype != nullptr) s.generation.textEncoderFp8 = dtypeBytes == 1;
      }
    }
  }

  // The storage a loader's dtype widgets choose (rules/comfyui.yaml dtype_widgets, in order; the first whose value
  // weight_dtypes gives bytes for), or {nullptr, 0} when they leave it to the file.
  std::pair<const NodeValue*, double> storage(const WorkflowNode& loader) const {
    for (const auto& widget : loader.known->storageWidgets()) {
      const NodeValue* v = loader.value(widget);
      if (v == nullptr || !v->value->isScalar()) continue;
      for (const auto& [value, dtypeBytes] : c_.weightDtypes) {
        if (value == v->value->resolved()->text && dtypeBytes > 0) return {v, dtypeBytes};
      }
    }
    return {nullptr, 0};
  }

  static std::string pickLargest(const std::vector<std::string>& files) {
    for (std::string_view mark : {"llama", "qwen", "umt5", "t5"}) {
      for (const auto& f : files) {
        if (bareFileName(f).find(mark) != std::string::npos) return f;
      }
    }
    return files.front();
  }

  void size(WorkflowSetup& s) const {
    GenerationSetup& g = s.generation;
    g.width = g.height = s.generation.family->defaultSize;
    if (s.latent == nullptr) return;
    // A value written but not a positive number (a UI workflow whose widget positions are not the table's,
    // a hand edit) is said, and its default used: never silently.
    const auto positive = [&](std::string_view name, long fallback) -> long {
      const NodeValue* v = s.latent->value(name);
      if (v == nullptr) return fallback;
      if (v->value->isNumber() && v->value->number() >= 1 && v->value->number() < 1e6) return static_cast<long>(v->value->number());
      s.unread.push_back({s.latent, v, s.latent->type + "'s " + std::string(name) + " is not a positive number: " + std::to_string(fallback) +
                                           " is assumed"});
      return fallback;
    };
    // WanVideoImageClipEncode names them generation_width / generation_height.
    const bool generation = s.latent->value("width") == nullptr && s.latent->value("generation_width") != nullptr;
    g.width = positive(generation ? "generation_width" : "width", g.width);
    g.height = positive(generation ? "generation_height" : "height", g.height);
    if (s.latent->known->latentFromPixels) {
      // Its latent is the image's: the area its pixels input is scaled to, as a square (the image's own aspect is not
      // in the workflow); the family's default size where nothing upstream sets it.
      if (const double pixels = imagePixelsUpstream(*s.latent, nullptr); pixels > 0) {
        g.width = g.height = std::max(64L, std::lround(std::sqrt(pixels) / 16) * 16);
      } else {
        g.imageSizeAssumed = true;
      }
      g.concatsLatent = s.latent->known->concatLatent;
    }
    g.batchSize = static_cast<int>(positive("batch_size", 1));
    g.frames = static_cast<int>(positive(s.latent->value("length") ? "length" : "num_frames", 1));
    // A pack's image-to-video node encodes the whole clip (the image padded to its length) on the GPU itself.
    if (const NodeType& t = *s.latent->known; t.encodesClip) {
      g.clipEncode = true;
      g.clipEncodeTiled = !t.vae.tilingWidget.empty() && s.latent->flag(t.vae.tilingWidget).value_or(false);
    }
    // A node's extra latent frames (a reference image, packed motion) as the clip frames that make as many tokens.
    if (const double extra = s.latent->known->extraLatentFrames; extra > 0 && g.frames > 1) {
      g.frames += static_cast<int>(std::lround(extra * std::max(1, s.arch.vae.temporal)));
    }
  }

  // The images reference nodes add to the first sampler's conditioning (FLUX Kontext's and FLUX.2's ReferenceLatent,
  // Qwen-Image Edit's encode node): their latent tokens join every forward's (comfy/model_base.py ref_latents).
  void references(WorkflowSetup& s) {
    std::vector<const WorkflowNode*> path;
    trace(w_, s.sampler, {"guider", "positive", "conditioning"}, {}, &path);
    GenerationSetup& g = s.generation;
    for (const WorkflowNode* n : path) {
      if (!isRole(n, {NodeRole::ReferenceLatent})) continue;
      costed_.push_back(n);
      if (const double each = n->known->imagePixels; each > 0) {  // it scales and encodes its images itself, given a VAE
        if (w_.upstream(*n, "vae") == nullptr) continue;
        for (std::string_view input : {"image", "image1", "image2", "image3"}) {
          if (w_.upstream(*n, input) != nullptr) g.referencePixels += each;
        }
      } else if (w_.upstream(*n, "latent") == nullptr) {
        continue;  // ReferenceLatent without a latent adds nothing (comfy_extras/nodes_edit_model.py)
      } else if (const double pixels = imagePixelsUpstream(*n, &s.referenceMegapixels); pixels > 0) {
        g.referencePixels += pixels;
      } else {  // a loaded image's size is not in the workflow
        g.referencePixels += static_cast<double>(g.width) * static_cast<double>(g.height);
        g.referenceSizeAssumed = true;
      }
    }
  }

  // The pixels of the image a node's latent encodes (a ReferenceLatent's, InstructPixToPixConditioning's): the first
  // node upstream that sets them (a scale to megapixels, whose widget `megapixels` keeps where given, or to a size,
  // FluxKontextImageScale's ~1 MP); 0 when none does.
  double imagePixelsUpstream(const WorkflowNode& from, std::vector<const NodeValue*>* megapixels) const {
    std::vector<const WorkflowNode*> path;
    trace(w_, &from, {"latent", "samples", "pixels", "image"}, {}, &path);
    for (const WorkflowNode* n : path) {
      if (n->known == nullptr) return 0;  // a node oomlint does not know may resize it
      if (const auto mp = n->number("megapixels")) {
        if (megapixels) megapixels->push_back(n->value("megapixels"));
        return *mp * 1024 * 1024;
      }
      if (n->known->imagePixels > 0) return n->known->imagePixels;
      const auto w = n->number("width"), h = n->number("height");
      if (w && h && *w > 0 && *h > 0) return *w * *h;
    }
    return 0;
  }

  // The models other samplers run (Wan 2.2's second expert, a refiner), each file once: --highvram and --gpu-only keep
  // every diffusion model on the GPU once loaded, its offload device being the GPU (model_management.py
  // unet_offload_device). Sized as the first sampler's architecture, stored as its own loader says.
  void otherDiffusionModels(WorkflowSetup& s) const {
    std::vector<std::string> seen = {s.modelName->value->resolved()->text};
    std::size_t samplers = 0;
    for (const auto& n : w_.nodes) {
      if (!n.active() || &n == s.sampler || !isRole(&n, {NodeRole::Sampler})) continue;
      if (++samplers > kMaxSamplers) break;
      const WorkflowNode* loader = trace(w_, &n, {"model", "guider"}, {NodeRole::Checkpoint, NodeRole::DiffusionModel});
      const NodeValue* file = loader != nullptr ? fileNameOf(*loader) : nullptr;
      if (file == nullptr || std::find(seen.begin(), seen.end(), file->value->resolved()->text) != seen.end()) continue;
      const std::string& name = seen.emplace_back(file->value->resolved()->text);
      const GgufQuant* gguf = nullptr;
      s.generation.otherDiffusionModels.push_back({bareFileName(name), s.arch.denoiser.params * loaderBytesPerParam(*loader, name, gguf)});
    }
  }

  // A second sampler whose latent comes through an upscale: the hires pass, at the upscaled size.
  void secondPass(WorkflowSetup& s) {
    std::size_t samplers = 0;
    for (const auto& n : w_.nodes) {
      if (!n.active() || &n == s.sampler || !isRole(&n, {NodeRole::Sampler})) continue;
      if (++samplers > kMaxSamplers) break;
      std::vector<const WorkflowNode*> path;
      trace(w_, &n, {"latent_image", "video_latent", "latent", "samples", "av_latent", "pixels", "image"}, {NodeRole::Sampler, NodeRole::Latent},
            &path);
      for (const WorkflowNode* step : path) {
        const SideModel* model = isRole(step, {NodeRole::UpscaleWithModel}) ? upscaleModelOf(*step) : nullptr;
        const long w = scaledWidth(*step, s.generation.width, model ? model->scale : 1);
        if (w <= s.generation.width) continue;
        s.secondPass = step;
        secondPassPath_ = path;  // what feeds the second sampler: an upscale on it runs between the passes
        s.generation.hiresScale = static_cast<double>(w) / static_cast<double>(s.generation.width);
        s.generation.hiresLatent = isRole(step, {NodeRole::LatentUpscale, NodeRole::LatentUpscaleBy});
        return;
      }
    }
  }

  // The hires pass's latent upscale by a model (LTXVLatentUpsampler): the model its loader names (an unknown name: the
  // role's catch-all), run between the passes.
  void latentModelUpscale(WorkflowSetup& s) {
    if (!isRole(s.secondPass, {NodeRole::LatentUpscaleBy})) return;
    const WorkflowNode* loader = w_.upstream(*s.secondPass, "upscale_model");
    if (!isRole(loader, {NodeRole::LatentUpscaleModel})) return;
    const SideModel* m = sideModelOf(*loader, NodeRole::LatentUpscaleModel);
    if (m == nullptr) return;
    s.generation.latentUpscale = {weightsOf(*m), m->bytesPerInputPixel, m->vol2colBytesPerInputPixel};
    costed_.push_back(loader);
  }

  static long scaledWidth(const WorkflowNode& n, long base, int modelScale) {
    if (isRole(&n, {NodeRole::LatentUpscale, NodeRole::ImageScale})) return static_cast<long>(n.number("width").value_or(0));
    if (isRole(&n, {NodeRole::LatentUpscaleBy})) return std::lround(base * n.number("scale_by").value_or(n.known->scaleBy > 0 ? n.known->scaleBy : 1));
    if (isRole(&n, {NodeRole::UpscaleWithModel})) return base * modelScale;
    return 0;
  }


  // A node pack's VAE loader (its `precision` widget: WanVideoVAELoader, HyVideoVAELoader, MochiVAELoader) keeps the
  // VAE in that dtype whatever the card; ComfyUI's own VAE class (VAELoader's, a checkpoint's) leaves it to vae_dtype.
  void vaePrecision(WorkflowSetup& s) const {
    const WorkflowNode* node = s.decode != nullptr ? s.decode : s.generation.clipEncode ? s.latent : nullptr;
    const WorkflowNode* loader = node != nullptr ? w_.upstream(*node, "vae") : nullptr;
    const std::string precision = isRole(loader, {NodeRole::Vae}) ? loader->text("precision") : "";
    if (precision.empty()) {
      s.generation.vaeDtypeByTool = true;
      s.generation.vaeWithoutFp16 = webui_.comfyVaeWithoutFp16(s.arch.vae.family);
      return;
    }
    s.generation.vaeBf16 = precision == "bf16";
    if (precision == "fp32") s.generation.fp32Vae = true;
  }

  void decode(WorkflowSetup& s) const {
    for (const auto& n : w_.nodes) {
      if (!n.active() || !isRole(&n, {NodeRole::VaeDecode, NodeRole::VaeDecodeTiled})) continue;
      if (s.decode == nullptr || isRole(&n, {NodeRole::VaeDecodeTiled})) s.decode = &n;
    }
    // Plain and tiled decodes together: the plain one is the risk, so it is the one estimated.
    for (const auto& n : w_.nodes) {
      if (n.active() && isRole(&n, {NodeRole::VaeDecode})) s.decode = &n;
    }
    GenerationSetup& g = s.generation;
    g.decodeTilePixels = g.frames > 1 ? c_.fallbackTileVideo : c_.fallbackTileImage;
    if (s.decode == nullptr) return;
    // A node pack's decode tiles when its boolean says so (WanVideoDecode's enable_vae_tiling), in its own tile.
    const PackVae& t = s.decode->known->vae;
    const bool tiled = t.tilingWidget.empty() ? isRole(s.decode, {NodeRole::VaeDecodeTiled}) : s.decode->flag(t.tilingWidget).value_or(false);
    if (tiled) {
      g.vaeDecode = VaeDecode::Tiled;
      const std::string tileWidget = t.tileWidget.empty() ? "tile_size" : t.tileWidget;
      if (auto tile = s.decode->number(tileWidget); tile && *tile >= 64 && *tile <= 8192) g.decodeTilePixels = static_cast<int>(*tile);
      if (auto latentFrames = t.framesWidget.empty() ? std::nullopt : s.decode->number(t.framesWidget); latentFrames && *latentFrames >= 1) {
        g.decodeFramesInFlight = static_cast<int>(*latentFrames) * std::max(1, s.arch.vae.temporal);
      }
    }
    g.decodeOutputBytesPerPixel = tiled ? t.tiledOutputBytesPerPixel : t.outputBytesPerPixel;
    // Older releases that read the tile's pixels as latent pixels: one tile when the latent is no larger (either side
    // against tile_x: the two are equal in the pack's examples).
    const long latentSide = std::max(g.width, g.height) / std::max(1, s.arch.vae.spatial);
    if (tiled && !t.olderUntiledReleases.empty() && latentSide <= g.decodeTilePixels) {
      g.decodeUntiledReleases = t.olderUntiledReleases;
      g.decodeUntiledOutputBytesPerPixel = t.outputBytesPerPixel;
    }
    g.decodeFramesPerCall = t.framesPerCall;
    g.decodeRetriesTiled = t.tilingWidget.empty();  // a node pack's decode (its own tiling switch) has no retry
  }

  // The ControlNets an apply node uses; one whose file oomlint has no size for is listed as not costed.
  void controlnets(WorkflowSetup& s) {
    const bool applied = firstActive(w_, {NodeRole::ControlnetApply}) != nullptr;
    for (const auto& n : w_.nodes) {
      if (!n.active() || !isRole(&n, {NodeRole::Controlnet})) continue;
      const NodeValue* file = fileNameOf(n);
      const std::string name = file ? lowercase(file->value->resolved()->text) : "";
      const ControlNetModel* model = webui_.controlnet(name, s.generation.family->id);
      if (model != nullptr || !applied) costed_.push_back(&n);  // without an apply node nothing runs it
      // comfy/controlnet.py asks unet_dtype with model_params -1, which never fits 16 bits: an fp8 file stays fp8.
      const bool fp8 = c_.namesFp8(name) && !n.known->fp32UntilSampled;
      if (applied && model != nullptr) s.generation.controlnets.push_back({name, model, false, nullptr, n.known->fp32UntilSampled, fp8});
    }
  }

  void mismatches(WorkflowSetup& s) const {
    const int channels = s.arch.vae.latentChannels;
    if (s.latent && s.latent->known->channels > 0 && s.latent->known->channels != channels) {
      s.mismatches.push_back({s.latent,
                              s.latent->type + " makes " + std::to_string(s.latent->known->channels) + "-channel latents, but " +
                                  s.label + " works on " + std::to_string(channels) +
                                  " channels: ComfyUI resizes an empty latent's channels to the model's, so it runs, but the "
                                  "latent node belongs to another model's workflow",
                              false});
    }
    for (const auto& n : w_.nodes) {
      if (!n.active() || !isRole(&n, {NodeRole::VaeDecode, NodeRole::VaeDecodeTiled})) continue;
      const WorkflowNode* vae = w_.upstream(n, "vae");
      if (!isRole(vae, {NodeRole::Vae})) continue;
      const NodeValue* file = fileNameOf(*vae);
      const NameMatch* known = file ? ComfyUiKnowledge::firstMatch(c_.vaeChannels, file->value->resolved()->text) : nullptr;
      if (known == nullptr || std::stoi(known->value) == channels) continue;
      s.mismatches.push_back({vae,
                              "this VAE decodes " + known->value + "-channel latents, but " + s.label + " makes " +
                                  std::to_string(channels) + "-channel ones: " + n.type + " fails in the decoder's first convolution",
                              true});
    }
  }

  const Workflow& w_;
  const ComfyUiKnowledge& c_;
  const WebUiKnowledge& webui_;
  const Architectures& archs_;
  std::vector<const WorkflowNode*> costed_;  // side-model nodes the estimate has a figure for
  std::vector<const WorkflowNode*> secondPassPath_;  // the nodes between the second sampler and the first pass
  const SideModel* extraModule_ = nullptr;            // the module an extra_model node adds, if any
};

}  // namespace

std::unique_ptr<WorkflowSetup> setupWorkflow(const Workflow& workflow, const ComfyUiKnowledge& comfyui, const WebUiKnowledge& webui,
                                             const Architectures& architectures) {
  return SetupBuilder(workflow, comfyui, webui, architectures).build();
}

}  // namespace oomlint
