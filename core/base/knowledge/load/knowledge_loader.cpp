// Reads the rules/ YAML files into the knowledge at build time (rules/compiler), checking what their
// schemas cannot: references between files and ids the C++ must know.
#include "base/knowledge/load/knowledge_loader.h"

#include <algorithm>

#include "base/document/node.h"
#include "base/knowledge/load/log_markers.h"
#include "base/text/ascii.h"
#include "base/text/release_version.h"

namespace oomlint {

namespace {

class Loader {
 public:
  Loader(Knowledge& k, const RulesFile& file, std::vector<std::string>& errors) : k_(k), file_(file), errors_(errors) {}

  const Node* load(std::string_view path) {
    const Node* root = file_(path);
    if (root == nullptr || !root->isMapping()) {
      error(std::string(path) + ": missing, or its top level is not a mapping");
      return nullptr;
    }
    return root;
  }

  void error(std::string message) { errors_.push_back(std::move(message)); }

  // A string of the knowledge: kept in it, so that the knowledge's views (knowledge_text.h) outlive the rules' nodes.
  KnowledgeText str(const Node* map, std::string_view key) { return k_.kept.keep(scalarText(map, key)); }
  static double num(const Node* map, std::string_view key, double fallback) { return numberAt(map, key, fallback); }
  // A figure the file's schema requires (rules/schema/, checked when the rules are compiled), so there is
  // no fallback: finding none means the data and its schema disagree, a load error.
  double figure(const Node* map, std::string_view key, std::string_view where) {
    const Node* v = map ? map->find(key) : nullptr;
    if (v && v->isNumber()) return v->number();
    error(std::string(where) + ": no number `" + std::string(key) + "`");
    return 0;
  }
  int integer(const Node* map, std::string_view key, std::string_view where) {
    return static_cast<int>(figure(map, key, where));
  }
  bool boolean(const Node* map, std::string_view key, std::string_view where) {
    const Node* v = map ? map->find(key) : nullptr;
    if (v && v->isScalar() && v->resolved()->type == ScalarType::Bool) return v->resolved()->boolValue;
    error(std::string(where) + ": no boolean `" + std::string(key) + "`");
    return false;
  }
  // A release number ("0.16.0"), kept as written; one that does not read as a release is a load error.
  KnowledgeText release(const Node* map, std::string_view key, std::string_view where) {
    const KnowledgeText text = str(map, key);
    if (!ReleaseVersion::parse(text)) error(std::string(where) + ": `" + std::string(key) + "` is no release number (0.16.0)");
    return text;
  }
  static bool flag(const Node* map, std::string_view key) {
    const Node* v = map ? map->find(key) : nullptr;
    return v && v->truthy();
  }
  static std::vector<double> numbers(const Node* list) {
    std::vector<double> out;
    if (list == nullptr || !list->isSequence()) return out;
    for (const Node* item : list->resolved()->items) {
      if (item->isNumber()) out.push_back(item->number());
    }
    return out;
  }
  KnowledgeText text(const Node* scalar) { return k_.kept.keep(scalar->resolved()->text); }
  std::vector<KnowledgeText> strings(const Node* list) {
    std::vector<KnowledgeText> out;
    if (list == nullptr || !list->isSequence()) return out;
    for (const Node* item : list->resolved()->items) {
      if (item->isScalar()) out.push_back(text(item));
    }
    return out;
  }
  // A list kept as one text (KnowledgeTexts), each item after its length in a byte.
  KnowledgeTexts joinedStrings(const Node* list, std::string_view where) {
    const std::vector<KnowledgeText> items = strings(list);
    for (const auto& item : items) {
      if (item.size() > KnowledgeTexts::kLongestItem) error(std::string(where) + ": \"" + std::string(item.substr(0, 40)) + "…\" is longer than an alias may be");
    }
    return KnowledgeTexts(items, k_.kept);
  }

  unsigned types(const Node* node, std::string_view where) {
    if (node == nullptr) return kAnyType;
    unsigned bits = 0;
    const std::vector<KnowledgeText> names = node->isSequence() ? strings(node) : std::vector<KnowledgeText>{text(node)};
    for (const auto& name : names) {
      if (name == "null") bits |= kNull;
      else if (name == "bool") bits |= kBool;
      else if (name == "int") bits |= kInt;
      else if (name == "float") bits |= kFloat;
      else if (name == "number") bits |= kInt | kFloat;
      else if (name == "string") bits |= kString;
      else if (name == "map") bits |= kMap;
      else if (name == "list") bits |= kList;
      else if (name == "any") bits |= kAnyType;
      else error(std::string(where) + ": unknown type `" + name + "`");
    }
    return bits ? bits : kAnyType;
  }

  void catalog() {
    const Node* root = load("rules/catalog.yaml");
    const Node* rules = root ? root->find("rules") : nullptr;
    if (rules == nullptr || !rules->isSequence()) return error("rules/catalog.yaml: no rules list");
    for (const Node* entry : rules->resolved()->items) {
      RuleInfo rule;
      rule.code = str(entry, "code");
      rule.name = str(entry, "name");
      rule.title = str(entry, "title");
      rule.summary = str(entry, "summary");
      auto severity = parseSeverity(str(entry, "severity"));
      if (!severity) error("rules/catalog.yaml: " + rule.code + ": bad severity");
      rule.severity = severity.value_or(Severity::Warning);
      k_.catalog.add(std::move(rule));
    }
    // RuleId is generated from the same file at configure time: a stale build would mismatch here.
    const auto& loaded = k_.catalog.rules();
    if (!std::equal(loaded.begin(), loaded.end(), kRuleCodes.begin(), kRuleCodes.end(),
                    [](const RuleInfo& rule, std::string_view code) { return rule.code == code; })) {
      error("rules/catalog.yaml: the rules differ from RuleId (generated at configure time: reconfigure)");
    }
  }

  void schema() {
    const Node* root = load("rules/ai-toolkit/schema.yaml");
    if (root == nullptr) return;
    if (const Node* sets = root->find("value_sets"); sets && sets->isMapping()) {
      for (const auto& [key, value] : sets->allEntries()) {
        ValueSet set;
        set.name = text(key);
        set.values = strings(value->find("values"));
        set.prefixes = strings(value->find("prefixes"));
        set.caseInsensitive = flag(value, "case_insensitive");
        k_.schema.addValueSet(std::move(set));
      }
    }
    const Node* sections = root->find("sections");
    if (sections == nullptr || !sections->isMapping()) return error("schema.yaml: no sections");
    for (const auto& [key, value] : sections->allEntries()) {
      SectionSpec section;
      section.name = text(key);
      section.source = str(value, "source");
      section.open = flag(value, "open");
      if (const Node* keys = value->find("keys"); keys && keys->isMapping()) {
        for (const auto& [k, spec] : keys->allEntries()) {
          const KnowledgeText name = text(k);
          if (name.size() > KnowledgeTexts::kLongestItem) error("schema.yaml: a key name in " + section.name + " is longer than a key may be");
          section.addKey(name, flag(spec, "required"), keySpec(section.name, name, spec), k_.kept);
        }
      }
      k_.schema.addSection(std::move(section));
    }
    checkReferences();
  }

  KeySpec keySpec(std::string_view section, std::string_view name, const Node* spec) {
    KeySpec ks;
    const std::string where = "schema.yaml: " + std::string(section) + "." + std::string(name);
    ks.types = types(spec->find("type"), where);
    ks.section = str(spec, "section");
    if (const Node* items = spec->find("items")) {
      if (items->isMapping()) {
        ks.itemSection = str(items, "section");
        ks.itemTypes = kMap;
      } else {
        ks.itemTypes = types(items, where);
      }
    }
    if (const MapEntry* def = spec->findEntry("default")) {
      ks.hasDefault = true;
      ks.defaultValue = def->value;
    }
    ks.nullable = flag(spec, "nullable");
    ks.valueSet = str(spec, "values");
    if (const Node* min = spec->find("min"); min && min->isNumber()) ks.min = min->number();
    if (const Node* max = spec->find("max"); max && max->isNumber()) ks.max = max->number();
    ks.exclusiveMin = flag(spec, "exclusive_min");
    ks.deprecated = str(spec, "deprecated");
    ks.memory = flag(spec, "memory");
    ks.doc = str(spec, "doc");
    if (const Node* n = spec->find("min_items"); n && n->isNumber()) ks.minItems = static_cast<std::size_t>(n->number());
    return ks;
  }

  void checkReferences() {
    for (const auto& [sectionName, section] : k_.schema.sections()) {
      const std::string& name = sectionName;  // a structured binding clang 14 cannot capture
      section->forEachKey([&](const SchemaKey& entry) {
        const KeySpec& key = entry.spec();
        for (const auto& ref : {key.section, key.itemSection}) {
          if (!ref.empty() && !k_.schema.section(ref)) error("schema.yaml: " + name + "." + entry.name + ": no section `" + ref + "`");
        }
        if (!key.valueSet.empty() && !k_.schema.valueSet(key.valueSet)) {
          error("schema.yaml: " + name + "." + entry.name + ": no value set `" + key.valueSet + "`");
        }
      });
    }
  }

  static std::vector<const Denoiser*> variantsOf(const Architecture& a) {
    std::vector<const Denoiser*> out{&a.denoiser};
    for (const auto& v : a.variants) out.push_back(&v.denoiser);
    return out;
  }

  void denoiserFields(Denoiser& n, const Node* d) {
    // Absent fields keep the value already there (a variant inherits its arch's).
    n.params = num(d, "params", n.params);
    n.experts = static_cast<int>(num(d, "experts", n.experts));
    n.blocks = static_cast<int>(num(d, "blocks", n.blocks));
    n.hidden = static_cast<int>(num(d, "hidden", n.hidden));
    n.heads = static_cast<int>(num(d, "heads", n.heads));
    n.mlpRatio = num(d, "mlp_ratio", n.mlpRatio);
    n.patch = static_cast<int>(num(d, "patch", n.patch));
    n.textTokens = static_cast<int>(num(d, "text_tokens", n.textTokens));
    if (const Node* v = d ? d->find("joint_attention") : nullptr) n.jointAttention = v->truthy();
    n.largestBlockParams = num(d, "largest_block_params", n.largestBlockParams);
    n.loraParamsPerRank = num(d, "lora_params_per_rank", n.loraParamsPerRank);
    n.controlTokenFactor = num(d, "control_token_factor", n.controlTokenFactor);
    n.controlMaxPixels = num(d, "control_max_pixels", n.controlMaxPixels);
    if (const Node* v = d ? d->find("cfg_in_sampling") : nullptr) n.cfgInSampling = v->truthy();
    if (const Node* v = d ? d->find("cfg_batched") : nullptr) n.cfgBatched = v->truthy();
    if (const KnowledgeText mask = str(d, "attention_mask"); !mask.empty()) n.attentionMask = mask;
    n.tokensPerSecond = num(d, "tokens_per_second", n.tokensPerSecond);
    n.planningSeconds = num(d, "planning_seconds", n.planningSeconds);
    if (const Node* v = d ? d->find("quantize_whole_on_gpu") : nullptr) n.quantizeWholeOnGpu = v->truthy();
    n.residentBf16Params = num(d, "resident_bf16_params", n.residentBf16Params);
    if (const Node* v = d ? d->find("quantize_te_on_cpu") : nullptr) n.quantizeTeOnCpu = v->truthy();
    if (const Node* v = d ? d->find("transformer_to_gpu_last") : nullptr) n.transformerToGpuLast = v->truthy();
    n.extrasQuantizedOnGpuParams = num(d, "extras_quantized_on_gpu_params", n.extrasQuantizedOnGpuParams);
    if (const Node* v = d ? d->find("te_qtype_from_model") : nullptr) n.teQtypeFromModel = v->truthy();
    if (const KnowledgeText family = str(d, "activation_family"); !family.empty()) n.activationFamily = family;
    n.factoredStateBytesPerParam = num(d, "factored_state_bytes_per_param", n.factoredStateBytesPerParam);
    n.largestTensorParams = num(d, "largest_tensor_params", n.largestTensorParams);
    n.recomputedUnitParams = num(d, "recomputed_unit_params", n.recomputedUnitParams);
    if (const Node* levels = d ? d->find("self_attention") : nullptr) {
      n.selfAttention.clear();
      for (const Node* l : items(levels)) {
        n.selfAttention.push_back({static_cast<int>(num(l, "downsample", 1)), static_cast<int>(num(l, "layers", 0)), static_cast<int>(num(l, "heads", 0))});
      }
    }
    n.swapUnits = static_cast<int>(num(d, "swap_units", n.swapUnits));
    n.pixelHeadTrainingBytesPerPixel = num(d, "pixel_head_training_bytes_per_pixel", n.pixelHeadTrainingBytesPerPixel);
    n.pixelHeadSamplingBytesPerPixel = num(d, "pixel_head_sampling_bytes_per_pixel", n.pixelHeadSamplingBytesPerPixel);
    n.textFusionHidden = static_cast<int>(num(d, "text_fusion_hidden", n.textFusionHidden));
    n.textFusionPasses = static_cast<int>(num(d, "text_fusion_passes", n.textFusionPasses));
  }

  void dims(Architecture& a, const Node* entry) {
    const Node* d = entry->find("denoiser");
    const Node* vae = entry->find("vae");
    if (d == nullptr || vae == nullptr) return error("architectures.yaml: " + a.arch + ": no denoiser/vae dimensions");
    // The schema requires every dimension of an arch's denoiser (a variant names only those that differ).
    for (std::string_view key : {"params", "experts", "blocks", "hidden", "heads", "mlp_ratio", "patch", "text_tokens",
                                 "joint_attention", "largest_block_params", "lora_params_per_rank", "control_token_factor",
                                 "cfg_in_sampling", "quantize_whole_on_gpu"}) {
      if (d->findEntry(key) == nullptr) error("architectures.yaml: " + a.arch + ": no denoiser." + std::string(key));
    }
    denoiserFields(a.denoiser, d);
    if (a.denoiser.params <= 0) error("architectures.yaml: " + a.arch + ": denoiser.params missing");
    if (const Node* variants = entry->find("variants"); variants && variants->isSequence()) {
      for (const Node* v : variants->resolved()->items) {
        ArchVariant variant;
        for (const auto& m : strings(v->find("match"))) variant.match.push_back(k_.kept.keep(lowercase(m)));
        variant.label = str(v, "label");
        variant.denoiser = a.denoiser;  // the fields a variant does not name are the arch's
        denoiserFields(variant.denoiser, v->find("denoiser"));
        a.variants.push_back(std::move(variant));
      }
    }
    if (const Node* tes = entry->find("text_encoders"); tes && tes->isSequence()) {
      for (const Node* te : tes->resolved()->items) {
        a.textEncoders.push_back({str(te, "name"), figure(te, "params", "architectures.yaml: " + a.arch + ": text_encoders"),
                                  num(te, "lora_params_per_rank", 0), flag(te, "quantized_before_transformer"),
                                  flag(te, "never_quantized")});
      }
    }
    a.vae.family = str(vae, "family");
    const std::string where = "architectures.yaml: " + a.arch + ": vae";
    a.vae.params = figure(vae, "params", where);
    a.vae.latentChannels = integer(vae, "latent_channels", where);
    a.vae.spatial = std::max(1, integer(vae, "spatial", where));
    a.vae.temporal = std::max(1, integer(vae, "temporal", where));
    a.vae.upcastsFp16SampleDecode = flag(vae, "upcasts_fp16_sample_decode");
    if (const Node* low = entry->find("low_vram_effect"); low && low->isMapping()) {
      const Node* kind = low->find("kind");
      a.lowVramKinds = kind && kind->isSequence() ? strings(kind) : std::vector<KnowledgeText>{str(low, "kind")};
      a.lowVramTilesSince = str(low, "tiles_since");
      if (!a.lowVramTilesSince.empty() && !a.lowVramDoes("tiled_vae")) error("architectures.yaml: " + a.arch + ": tiles_since without tiled_vae");
    }
    a.coarse = flag(entry, "coarse");
  }

  void gpus() {
    const Node* root = load("rules/gpus.yaml");
    const Node* list = root ? root->find("gpus") : nullptr;
    if (list == nullptr || !list->isSequence()) return error("gpus.yaml: no gpus list");
    for (const Node* entry : list->resolved()->items) {
      Gpu g;
      g.name = str(entry, "name");
      g.aliases = joinedStrings(entry->find("aliases"), "gpus.yaml");
      g.vendor = str(entry, "vendor");
      g.arch = str(entry, "arch");
      if ((g.vendor == "amd") != !g.arch.empty()) error("gpus.yaml: " + g.name + ": arch is AMD's, and every AMD card has one");
      g.gpuClass = str(entry, "class");
      g.marketingGb = figure(entry, "marketing_gb", "gpus.yaml: " + g.name);
      g.linuxBytes = static_cast<std::uint64_t>(figure(entry, "linux_bytes", "gpus.yaml: " + g.name));
      g.windowsBytes = static_cast<std::uint64_t>(num(entry, "windows_bytes", 0));  // null: not applicable
      g.computeCapability = num(entry, "compute_capability", 0);
      if ((g.vendor == "nvidia") != (g.computeCapability > 0)) error("gpus.yaml: " + g.name + ": compute_capability is NVIDIA's, and every NVIDIA card has one");
      if (g.name.empty() || g.linuxBytes == 0) error("gpus.yaml: entry without name or linux_bytes");
      k_.gpus.add(std::move(g));
    }
  }

  void memory() {
    const Node* root = load("rules/memory.yaml");
    if (root == nullptr) return;
    MemoryModel& m = k_.memory;
    constexpr std::string_view kFile = "memory.yaml";
    if (const Node* list = root->find("weight_formats"); list && list->isSequence()) {
      for (const Node* e : list->resolved()->items) {
        m.weightFormats.push_back({str(e, "name"), joinedStrings(e->find("aliases"), kFile), figure(e, "bytes_per_param", kFile),
                                   figure(e, "full_precision_fraction", kFile), flag(e, "saves_dequantized_weight")});
      }
    }
    if (const Node* list = root->find("optimizers"); list && list->isSequence()) {
      for (const Node* e : list->resolved()->items) {
        m.optimizers.push_back({str(e, "name"), boolean(e, "prefix", kFile), figure(e, "state_bytes_per_param", kFile),
                                flag(e, "factored_second_moment"), flag(e, "frees_grads_in_backward"),
                                flag(e, "state_in_param_dtype")});
      }
    }
    if (const Node* list = root->find("vae"); list && list->isSequence()) {
      for (const Node* e : list->resolved()->items) {
        m.vaes.push_back({str(e, "family"), figure(e, "decode_k", kFile), figure(e, "encode_k", kFile),
                          integer(e, "video_frames_in_flight", kFile), num(e, "image_decode_k", 0), num(e, "image_encode_k", 0),
                          static_cast<int>(num(e, "rgb_clip_copies", 0)), num(e, "all_frames_decode_floor_k", 0),
                          num(e, "image_decode_floor_k", 0), num(e, "image_encode_floor_k", 0),
                          static_cast<int>(num(e, "tile_px", 0)), static_cast<int>(num(e, "tile_stride_px", 0)),
                          static_cast<int>(num(e, "vol2col_channels", 0)), flag(e, "always_tiles"),
                          static_cast<int>(num(e, "output_bytes", 0)), static_cast<int>(num(e, "image_decoded_frames", 0))});
      }
    }
    if (m.weightFormats.empty() || m.optimizers.empty() || m.vaes.empty()) error("memory.yaml: empty format/optimizer/vae lists");
    if (const Node* emb = root->find("text_encoder_embeddings"); emb && emb->isMapping()) {
      for (const auto& [k, v] : emb->allEntries()) {
        if (v->isNumber()) m.textEncoderEmbeddings.emplace_back(text(k), v->number());
      }
    }
    m.araFractionOfBase = figure(root->find("accuracy_recovery_adapter"), "fraction_of_base_params", "memory.yaml: accuracy_recovery_adapter");
    const Node* t = root->find("trainable");
    m.loraWeightBytes = figure(t, "lora_weight_bytes", "memory.yaml: trainable");
    m.loraGradBytes = figure(t, "lora_grad_bytes", "memory.yaml: trainable");
    m.emaResident = boolean(t, "ema_resident", "memory.yaml: trainable");
    m.fusedStepFp32Copies = figure(t, "fused_step_fp32_copies", "memory.yaml: trainable");
    const Node* a = root->find("activations");
    constexpr std::string_view kActivations = "memory.yaml: activations";
    m.plainAttentionSavedMatrices = figure(a, "plain_attention_saved_matrices", kActivations);
    m.plainAttentionBackwardMatrices = figure(a, "plain_attention_backward_matrices", kActivations);
    m.plainAttentionInferenceMatrices = figure(a, "plain_attention_inference_matrices", kActivations);
    m.checkpointBytesPerTokenChannel = figure(a, "checkpoint_bytes_per_token_channel", kActivations);
    m.blockBytesPerTokenChannel = figure(a, "block_bytes_per_token_channel", kActivations);
    m.activationMultiplier = figure(a, "multiplier", kActivations);
    m.inferenceBytesPerTokenChannel = figure(a, "inference_bytes_per_token_channel", kActivations);
    m.unetBytesPerLatentPixelCheckpointed = figure(a, "unet_bytes_per_latent_pixel_checkpointed", kActivations);
    m.unetBytesPerLatentPixelFull = figure(a, "unet_bytes_per_latent_pixel_full", kActivations);
    m.recomputeBytesPerTokenChannel = figure(a, "recompute_bytes_per_token_channel", kActivations);
    m.loraInferenceBytesPerTokenChannel = figure(a, "lora_inference_bytes_per_token_channel", kActivations);
    m.unetInferenceBytesPerLatentPixel = figure(a, "unet_inference_bytes_per_latent_pixel", kActivations);
    m.autocastBlockBytesPerTokenChannel = figure(a, "autocast_block_bytes_per_token_channel", kActivations);
    m.autocastRecomputeBytesPerTokenChannel = figure(a, "autocast_recompute_bytes_per_token_channel", kActivations);
    m.autocastLoraInferenceBytesPerTokenChannel = figure(a, "autocast_lora_inference_bytes_per_token_channel", kActivations);
    m.frozenBlockShare = figure(a, "frozen_block_share", kActivations);
    const ActivationCoefficients defaults = m.activations("");
    if (const Node* list = a ? a->find("families") : nullptr; list && list->isSequence()) {
      for (const Node* e : list->resolved()->items) {
        ActivationCoefficients f = defaults;
        f.family = str(e, "family");
        f.blockBytesPerTokenChannel = num(e, "block_bytes_per_token_channel", f.blockBytesPerTokenChannel);
        f.recomputeBytesPerTokenChannel = num(e, "recompute_bytes_per_token_channel", f.recomputeBytesPerTokenChannel);
        f.inferenceBytesPerTokenChannel = num(e, "inference_bytes_per_token_channel", f.inferenceBytesPerTokenChannel);
        f.loraInferenceBytesPerTokenChannel =
            num(e, "lora_inference_bytes_per_token_channel", f.loraInferenceBytesPerTokenChannel);
        f.unetBytesPerLatentPixelCheckpointed =
            num(e, "unet_bytes_per_latent_pixel_checkpointed", f.unetBytesPerLatentPixelCheckpointed);
        f.unetBytesPerLatentPixelFull = num(e, "unet_bytes_per_latent_pixel_full", f.unetBytesPerLatentPixelFull);
        f.unetInferenceBytesPerLatentPixel = num(e, "unet_inference_bytes_per_latent_pixel", f.unetInferenceBytesPerLatentPixel);
        f.autocastBlockBytesPerTokenChannel = num(e, "autocast_block_bytes_per_token_channel", f.autocastBlockBytesPerTokenChannel);
        f.autocastRecomputeBytesPerTokenChannel =
            num(e, "autocast_recompute_bytes_per_token_channel", f.autocastRecomputeBytesPerTokenChannel);
        f.autocastLoraInferenceBytesPerTokenChannel =
            num(e, "autocast_lora_inference_bytes_per_token_channel", f.autocastLoraInferenceBytesPerTokenChannel);
        f.frozenBlockShare = num(e, "frozen_block_share", f.frozenBlockShare);
        f.measuredOnGpu = str(e, "measured_on") == "gpu";
        f.comfyUiInferenceBytesPerTokenChannel = num(e, "comfyui_inference_bytes_per_token_channel", 0);
        f.comfyUiOlderInferenceBytesPerTokenChannel = num(e, "comfyui_older_inference_bytes_per_token_channel", 0);
        f.comfyUiOlderReleases = str(e, "comfyui_older_releases");
        if (!str(e, "comfyui_older_until").empty()) f.comfyUiOlderUntil = release(e, "comfyui_older_until", "memory.yaml: activations.families");
        f.comfyUiOlderNeedsNoiseMask = flag(e, "comfyui_older_needs_noise_mask");
        m.activationFamilies.push_back(std::move(f));
      }
    }
    // Every family an architecture names must exist (architectures.yaml loads first).
    for (const auto& entry : k_.architectures.entries()) {
      const Architecture& arch = *entry.details;
      for (const Denoiser* d : variantsOf(arch)) {
        if (d->activationFamily.empty()) continue;
        const bool known = std::any_of(m.activationFamilies.begin(), m.activationFamilies.end(),
                                       [&](const ActivationCoefficients& f) { return f.family == d->activationFamily; });
        if (!known) error("architectures.yaml: " + arch.arch + ": activation_family `" + d->activationFamily + "` is not in memory.yaml");
      }
      // A tiled decode needs its VAE's tile size.
      const VaeConstants* vae = m.vae(arch.vae.family);
      if (arch.lowVramDoes("tiled_vae") && vae != nullptr && vae->tilePx <= 0) {
        error("memory.yaml: vae " + arch.vae.family + ": tile_px is needed (" + arch.arch + " tiles its decode under low_vram)");
      }
    }
    const Node* o = root->find("overheads");
    m.cudaContextBytes = figure(o, "cuda_context_bytes", "memory.yaml: overheads");
    m.allocatorFraction = figure(o, "allocator_fraction", "memory.yaml: overheads");
    m.layerOffloadRingLinears = integer(o, "layer_offload_ring_linears", "memory.yaml: overheads");
    const Node* u = root->find("uncertainty");
    constexpr std::string_view kUncertainty = "memory.yaml: uncertainty";
    m.uncertaintyWeights = figure(u, "weights", kUncertainty);
    m.uncertaintyTrainable = figure(u, "trainable", kUncertainty);
    m.uncertaintyActivations = figure(u, "activations", kUncertainty);
    m.uncertaintyActivationsMeasuredOnGpu = figure(u, "activations_measured_on_gpu", kUncertainty);
    m.uncertaintyActivationsUnmeasured = figure(u, "activations_unmeasured", kUncertainty);
    m.uncertaintyVae = figure(u, "vae", kUncertainty);
    m.uncertaintyVaeAbove = figure(u, "vae_above", kUncertainty);
    m.uncertaintyFixedFraction = figure(u, "fixed_bytes", kUncertainty);
    m.uncertaintyCoarseExtra = figure(u, "coarse_model_extra", kUncertainty);
    const Node* h = root->find("host_ram");
    constexpr std::string_view kHost = "memory.yaml: host_ram";
    m.host.processBaselineBytes = figure(h, "process_baseline_bytes", kHost);
    m.host.systemReserveBytes = figure(h, "system_reserve_bytes", kHost);
    m.host.checkpointDtype = str(h, "checkpoint_dtype");
    m.host.checkpointShardBytes = figure(h, "checkpoint_shard_bytes", kHost);
    m.host.pinnedRounding = figure(h, "pinned_rounding", kHost);
    m.host.workerBytes = figure(h, "worker_bytes", kHost);
    m.host.decodedBytesPerPixel = figure(h, "decoded_bytes_per_pixel", kHost);
    m.host.fp32ModuleInit = strings(h ? h->find("fp32_module_init") : nullptr);
    if (m.format(m.host.checkpointDtype) == nullptr) error("memory.yaml: host_ram.checkpoint_dtype is not a weight format");
  }

  void architectures() {
    const Node* root = load("rules/ai-toolkit/architectures.yaml");
    const Node* list = root ? root->find("architectures") : nullptr;
    if (list == nullptr || !list->isSequence()) return error("architectures.yaml: no architectures list");
    k_.architectures.setAssumes(str(root, "assumes"));
    for (const Node* entry : list->resolved()->items) {
      Architecture a;
      a.arch = str(entry, "arch");
      a.aliases = joinedStrings(entry->find("aliases"), "architectures.yaml");
      a.legacyFlag = str(entry, "legacy_flag");
      a.label = str(entry, "label");
      a.kind = str(entry, "kind");
      if (const Node* bd = entry->find("bucket_divisibility"); bd && bd->isNull()) {
        a.bucketDivisibility = 0;  // not pixel-bucketed (audio)
      } else {
        a.bucketDivisibility = integer(entry, "bucket_divisibility", "architectures.yaml: " + a.arch);
      }
      if (const Node* grid = entry->find("frame_grid"); grid && grid->isMapping()) {
        FrameGrid g;
        g.multiple = std::max(1, integer(grid, "multiple", "architectures.yaml: " + a.arch + ": frame_grid"));
        g.offset = integer(grid, "offset", "architectures.yaml: " + a.arch + ": frame_grid");
        a.frameGrid = g;
      }
      a.fluxFamily = flag(entry, "flux_family");
      a.wanFamily = flag(entry, "wan_family");
      a.layerOffloading = flag(entry, "layer_offloading");
      a.lowVram = flag(entry, "low_vram");
      a.cannotUnloadTe = flag(entry, "cannot_unload_te");
      a.loraIgnoreIfContains = strings(entry->find("lora_ignore_if_contains"));
      a.trainerOnly = flag(entry, "trainer_only");
      if (a.arch.empty()) error("architectures.yaml: entry without arch");
      dims(a, entry);
      k_.architectures.add(std::move(a));
    }
  }

  void comfyui() {
    const Node* root = load("rules/comfyui.yaml");
    if (root == nullptr) return;
    ComfyUiKnowledge& c = k_.comfyui.value();
    for (const Node* e : items(root->find("nodes"))) {
      NodeType n;
      n.type = str(e, "type");
      n.widgets = strings(e->find("widgets"));
      n.channels = static_cast<int>(num(e, "channels", 0));
      n.gguf = flag(e, "gguf");
      n.family = str(e, "family");
      n.wholeModel = flag(e, "whole_model");
      n.extraLatentFrames = num(e, "extra_latent_frames", 0);
      n.scaleBy = num(e, "scale_by", 0);
      n.fp32UntilSampled = flag(e, "fp32_until_sampled");
      n.loader.dtypeWidgets = strings(e->find("dtype_widgets"));
      n.loader.loadDeviceWidget = str(e, "load_device_widget");
      n.loader.onGpuFromLoad = flag(e, "on_gpu_from_load");
      n.loader.maskedAttentionModes = strings(e->find("masked_attention_modes"));
      n.blockSwap.widgets = strings(e->find("swap_widgets"));
      n.blockSwap.blockParams = numbers(e->find("swap_block_params"));
      for (double most : numbers(e->find("swap_most"))) n.blockSwap.most.push_back(static_cast<int>(most));
      if (n.blockSwap.blockParams.size() != n.blockSwap.widgets.size() || n.blockSwap.most.size() != n.blockSwap.widgets.size()) {
        error("comfyui.yaml: node " + n.type + ": one swap_block_params and one swap_most per swap_widgets entry");
      }
      n.blockSwap.prefetchWidget = str(e, "prefetch_widget");
      n.sequentialGuidance = flag(e, "sequential_guidance");
      n.olderBlockBytesPerTokenChannel = num(e, "older_block_bytes_per_token_channel", 0);
      n.olderBlockReleases = str(e, "older_block_releases");
      n.cacheTokenMaps = num(e, "cache_token_maps", 0);
      n.cacheOrdersWidget = str(e, "cache_orders_widget");
      n.cacheOrdersDefault = static_cast<int>(num(e, "cache_orders_default", 0));
      n.cacheMapsWidget = str(e, "cache_maps_widget");
      if (const Node* byValue = e->find("cache_maps_by_value"); byValue && byValue->isMapping()) {
        for (const auto& entry : byValue->resolved()->entries) {
          n.cacheMapsByValue.emplace_back(text(entry.key), entry.value->number());
        }
      }
      n.wholeModelWidget = str(e, "whole_model_widget");
      n.wholeModelValues = strings(e->find("whole_model_values"));
      n.wholeModelUnlessLinked = str(e, "whole_model_unless_linked");
      n.gpuOverFrames = flag(e, "gpu_over_frames");
      n.videoSource = flag(e, "video_source");
      n.noiseMask = flag(e, "noise_mask");
      n.latentFromPixels = flag(e, "latent_from_pixels");
      n.concatLatent = flag(e, "concat_latent");
      n.guidanceConds = static_cast<int>(num(e, "guidance_conds", 0));
      if (n.wholeModelWidget.empty() != n.wholeModelValues.empty()) {
        error("comfyui.yaml: node " + n.type + ": whole_model_widget and whole_model_values go together");
      }
      if (n.cacheMapsWidget.empty() != n.cacheMapsByValue.empty()) {
        error("comfyui.yaml: node " + n.type + ": cache_maps_widget and cache_maps_by_value go together");
      }
      if ((n.olderBlockBytesPerTokenChannel > 0) != !n.olderBlockReleases.empty()) {
        error("comfyui.yaml: node " + n.type + ": older_block_bytes_per_token_channel and older_block_releases go together");
      }
      n.vae.tilingWidget = str(e, "tiling_widget");
      n.encodesClip = flag(e, "encodes_clip");
      n.vae.tileWidget = str(e, "tile_widget");
      n.vae.framesWidget = str(e, "frames_widget");
      n.vae.framesPerCall = static_cast<int>(num(e, "frames_per_call", 0));
      n.vae.outputBytesPerPixel = num(e, "output_bytes_per_px", 0);
      n.vae.tiledOutputBytesPerPixel = num(e, "tiled_output_bytes_per_px", 0);
      n.vae.olderUntiledReleases = str(e, "older_untiled_releases");
      n.imagePixels = num(e, "image_pixels", 0);
      n.packsLatents = flag(e, "packs_latents");
      if (auto role = parseNodeRole(str(e, "role"))) n.role = *role;
      else error("comfyui.yaml: node " + n.type + ": role `" + str(e, "role") + "` is not a NodeRole");
      if ((n.role == NodeRole::FeatureCache) != (n.cacheTokenMaps > 0)) {
        error("comfyui.yaml: node " + n.type + ": a feature_cache node, and only one, gives cache_token_maps");
      }
      if (c.node(n.type) != nullptr) error("comfyui.yaml: node " + n.type + " listed twice");
      c.nodes.push_back(std::move(n));
    }
    for (const Node* e : items(root->find("model_families"))) {
      c.modelFamilies.push_back({str(e, "family"), strings(e->find("match"))});
      if (k_.webui.value().family(c.modelFamilies.back().value) == nullptr) {
        error("comfyui.yaml: model_families: unknown generation family " + c.modelFamilies.back().value);
      }
    }
    // A generation model is its dimensions written here, or an architectures.yaml entry named by `arch`.
    const auto addGenerationModel = [&](const Node* e, Architecture a) {
      if (k_.memory.vae(a.vae.family) == nullptr) error("comfyui.yaml: " + a.arch + ": memory.yaml has no vae `" + a.vae.family + "`");
      GenerationFamily f;
      f.id = a.arch;
      f.arch = a.arch;
      f.defaultSize = integer(e, "default_size", "comfyui.yaml: " + a.arch);
      f.tools = {"comfyui"};
      f.attentionDownsample = a.vae.spatial * std::max(1, a.denoiser.patch);
      comfyMemory(f, e, "comfyui.yaml: " + a.arch);
      c.generationModels.push_back({f.id, strings(e->find("match"))});
      c.generationFamilies.push_back(std::move(f));
      c.generationArchitectures.push_back(std::move(a));
    };
    for (const Node* e : items(root->find("generation_models"))) {
      Architecture a;
      a.arch = str(e, "id");
      a.label = str(e, "label");
      a.kind = str(e, "kind");
      dims(a, e);
      addGenerationModel(e, std::move(a));
    }
    for (const Node* e : items(root->find("generation_archs"))) {
      if (const Architecture* a = k_.architectures.byId(str(e, "arch"))) addGenerationModel(e, *a);
      else error("comfyui.yaml: generation_archs: unknown arch " + str(e, "arch"));
    }
    for (const Node* e : items(root->find("unmodelled_families"))) c.unmodelledFamilies.push_back({str(e, "label"), strings(e->find("match"))});
    for (const NodeType& n : c.nodes) {
      const bool own = std::any_of(c.generationFamilies.begin(), c.generationFamilies.end(), [&](const GenerationFamily& f) { return f.id == n.family; });
      if (!n.family.empty() && !own && k_.webui.value().family(n.family) == nullptr) error("comfyui.yaml: node " + n.type + ": unknown family " + n.family);
    }
    for (const Node* e : items(root->find("vae_channels"))) {
      c.vaeChannels.push_back({k_.kept.keep(std::to_string(integer(e, "channels", "comfyui.yaml: vae_channels"))), strings(e->find("match"))});
    }
    for (const Node* e : items(root->find("weight_dtypes"))) c.weightDtypes.emplace_back(str(e, "value"), figure(e, "bytes", "comfyui.yaml: weight_dtypes"));
    c.fp8NameMarks = strings(root->find("fp8_name_marks"));
    c.fp8ScaledNameMarks = strings(root->find("fp8_scaled_name_marks"));
    for (const Node* e : items(root->find("gguf_quants"))) c.ggufQuants.push_back({str(e, "name"), figure(e, "bits", "comfyui.yaml: gguf_quants")});
    for (const Node* e : items(root->find("gguf_step_down"))) c.ggufStepDown.emplace_back(str(e, "from"), str(e, "to"));
    const Node* tile = root->find("decode_fallback_tile");
    c.fallbackTileImage = integer(tile, "image", "comfyui.yaml: decode_fallback_tile");
    c.fallbackTileVideo = integer(tile, "video", "comfyui.yaml: decode_fallback_tile");
    c.assumes = str(root, "assumes");
    c.assumesDynamic = str(root, "assumes_dynamic");
    const Node* upscale = root->find("upscale_tile");
    c.upscaleTile = integer(upscale, "start", "comfyui.yaml: upscale_tile");
    c.upscaleSmallestTile = integer(upscale, "smallest", "comfyui.yaml: upscale_tile");
    for (const Node* e : items(root->find("side_models"))) {
      const std::string where = "comfyui.yaml: side_models: " + str(e, "label");
      SideModel m{NodeRole::NoCost, str(e, "label"), strings(e->find("match")), figure(e, "params", where), figure(e, "bytes_per_param", where),
                  static_cast<int>(num(e, "scale", 1)), num(e, "bytes_per_input_pixel", 0), static_cast<int>(num(e, "blocks", 0)),
                  num(e, "vol2col_bytes_per_input_pixel", 0)};
      if (auto role = parseNodeRole(str(e, "role"));
          role && (*role == NodeRole::UpscaleModel || *role == NodeRole::LatentUpscaleModel || *role == NodeRole::ClipVision ||
                   *role == NodeRole::Ipadapter || *role == NodeRole::ExtraModel)) {
        m.role = *role;
      } else {
        error(where + ": role `" + str(e, "role") + "` is not a loader of a side model (upscale_model, latent_upscale_model, clip_vision, ipadapter, extra_model)");
      }
      if (m.role == NodeRole::ExtraModel && m.blocks < 1) error(where + ": an extra model needs its blocks");
      if (m.role == NodeRole::UpscaleModel && (m.scale < 1 || m.bytesPerInputPixel <= 0)) error(where + ": an upscale model needs its scale and bytes_per_input_pixel");
      // A latent upscale model's scale is its node's (LTXVLatentUpsampler's scale_by): the model has its working memory.
      if (m.role == NodeRole::LatentUpscaleModel && (m.bytesPerInputPixel <= 0 || m.vol2colBytesPerInputPixel < m.bytesPerInputPixel)) {
        error(where + ": a latent upscale model needs bytes_per_input_pixel and vol2col_bytes_per_input_pixel, at least as large");
      }
      c.sideModels.push_back(std::move(m));
    }
  }

  // A family's ComfyUI memory_usage_factor (or per unit of width) and latent downscale (webui.yaml
  // comfy_sampler_memory_source): exactly one of the two factors, positive.
  void comfyMemory(GenerationFamily& f, const Node* e, const std::string& where) {
    f.comfyMemoryFactor = num(e, "comfy_memory_factor", 0);
    f.comfyMemoryFactorPerWidth = num(e, "comfy_memory_factor_per_width", 0);
    f.comfyLatentSpatial = static_cast<int>(num(e, "comfy_latent_spatial", 0));
    f.comfyConcatTokens = flag(e, "comfy_concat_tokens");
    if ((f.comfyMemoryFactor > 0) == (f.comfyMemoryFactorPerWidth > 0) || f.comfyMemoryFactor < 0 || f.comfyMemoryFactorPerWidth < 0) {
      error(where + ": one positive comfy_memory_factor or comfy_memory_factor_per_width");
    }
    if (f.comfyLatentSpatial < 0) error(where + ": comfy_latent_spatial must not be negative");
  }

  static std::vector<const Node*> items(const Node* list) {
    if (list == nullptr || !list->isSequence()) return {};
    return list->resolved()->items;
  }

  // The decoder's structure (rules/webui.yaml vae_decoder): stages, ResnetBlock styles and each tool's style.
  void vaeDecoder(WebUiKnowledge& w, const Node* d) {
    constexpr std::string_view kWhere = "webui.yaml: vae_decoder";
    w.vaeDecoderFamilies = strings(d ? d->find("vae_families") : nullptr);
    for (const auto& family : w.vaeDecoderFamilies) {
      if (k_.memory.vae(family) == nullptr) error("webui.yaml: vae_decoder: memory.yaml has no vae `" + family + "`");
    }
    for (const Node* e : items(d ? d->find("stages") : nullptr)) {
      w.vaeDecoderStages.push_back({integer(e, "channels_in", kWhere), integer(e, "channels_out", kWhere), std::max(1, integer(e, "area_divisor", kWhere))});
    }
    for (const Node* e : items(d ? d->find("resnet_styles") : nullptr)) {
      VaeResnetStyle style{str(e, "id"), {}};
      for (const Node* step : items(e->find("live"))) style.live.emplace_back(integer(step, "input_maps", kWhere), integer(step, "output_maps", kWhere));
      w.vaeResnetStyles.push_back(std::move(style));
    }
    const Node* styles = d ? d->find("styles") : nullptr;
    for (WebUiTool tool : {WebUiTool::A1111, WebUiTool::Forge, WebUiTool::ComfyUi}) {
      KnowledgeText& id = w.vaeResnetStyleByTool[static_cast<std::size_t>(tool)];
      id = str(styles, toString(tool));
      if (w.vaeResnetStyle(id) == nullptr) error("webui.yaml: vae_decoder: styles: unknown ResnetBlock style `" + id + "`");
    }
    if (w.vaeDecoderStages.empty()) error("webui.yaml: vae_decoder: no stages");
    w.vaeNaiveAttentionMatrices = figure(d, "naive_attention_matrices", kWhere);
    w.vaeDecoderSource = str(d, "source");
  }

  void webui() {
    const Node* root = load("rules/webui.yaml");
    if (root == nullptr) return;
    WebUiKnowledge& w = k_.webui.value();
    const Node* c = root->find("constants");
    constexpr std::string_view kConstants = "webui.yaml: constants";
    w.displayBytes = figure(c, "display_bytes", kConstants);
    w.forgeInferenceBytes = figure(c, "forge_inference_bytes", kConstants);
    w.comfyInferenceBytes = figure(c, "comfy_inference_bytes", kConstants);
    w.comfyReserveBytes = figure(c, "comfy_reserve_bytes", kConstants);
    w.comfyOffloadStreams = static_cast<int>(figure(c, "comfy_offload_streams", kConstants));
    w.comfyDynamicVramSince = release(c, "comfy_dynamic_vram_since", kConstants);
    w.comfyDynamicVramGpuTextEncoderSince = release(c, "comfy_dynamic_vram_gpu_text_encoder_since", kConstants);
    w.comfyVaeFamiliesWithoutFp16 = strings(c->find("comfy_vae_families_without_fp16"));
    for (const KnowledgeText f : w.comfyVaeFamiliesWithoutFp16) {
      if (k_.memory.vae(f) == nullptr) error("webui.yaml: comfy_vae_families_without_fp16: memory.yaml has no vae `" + f + "`");
    }
    w.comfyFp8ComputeCapability = figure(c, "comfy_fp8_compute_capability", kConstants);
    w.comfyWeightsVramShare = figure(c, "comfy_weights_vram_share", kConstants);
    w.comfyMinWeightShareOffNvidia = figure(c, "comfy_min_weight_share_off_nvidia", kConstants);
    w.comfyFp16BrokenCards = strings(c->find("comfy_fp16_broken_cards"));
    for (const KnowledgeText card : w.comfyFp16BrokenCards) {
      const Gpu* gpu = k_.gpus.find(card);
      if (gpu == nullptr || gpu->name != card) error("webui.yaml: comfy_fp16_broken_cards: gpus.yaml has no card named `" + card + "`");
    }
    w.comfyFp16OnLinuxSinceCapability = figure(c, "comfy_fp16_on_linux_since_capability", kConstants);
    w.forgeWeightsFreeShare = figure(c, "forge_weights_free_share", kConstants);
    w.unetActSource = str(c, "unet_act_source");
    w.forgePartialLoadDivisor = figure(c, "forge_partial_load_divisor", kConstants);
    w.forgePartialLoadMarginBytes = figure(c, "forge_partial_load_margin_bytes", kConstants);
    w.controlnetActivationShare = figure(c, "controlnet_activation_share", kConstants);
    w.controlnetUnetResidualElements = figure(c, "controlnet_unet_residual_elements", kConstants);
    w.medvramSpeed = str(c, "medvram_speed");
    w.lowvramSpeed = str(c, "lowvram_speed");
    w.taesdDecodeBytesPerPixel = figure(c, "taesd_decode_bytes_per_pixel", kConstants);
    vaeDecoder(w, root->find("vae_decoder"));
    const Node* tiles = root->find("tiled_vae_decoder_tile");
    if (const Node* rows = tiles ? tiles->find("by_vram") : nullptr; rows && rows->isSequence()) {
      for (const Node* e : rows->resolved()->items) {
        w.decoderTiles.emplace_back(figure(e, "above_gb", "webui.yaml: tiled_vae_decoder_tile"),
                                    integer(e, "tile", "webui.yaml: tiled_vae_decoder_tile"));
      }
    }
    w.decoderTileOtherwise = integer(tiles, "otherwise", "webui.yaml: tiled_vae_decoder_tile");
    const Node* checkpoints = root->find("checkpoint_families");
    if (const Node* rows = checkpoints ? checkpoints->find("by_name") : nullptr; rows && rows->isSequence()) {
      for (const Node* e : rows->resolved()->items) w.checkpointFamilies.emplace_back(str(e, "family"), strings(e->find("contains")));
    }
    w.checkpointFamilyOtherwise = str(checkpoints, "otherwise");
    const Node* attentionDefaults = root->find("default_attention");
    for (WebUiTool tool : {WebUiTool::A1111, WebUiTool::Forge, WebUiTool::ComfyUi}) {
      w.defaultAttentions[static_cast<std::size_t>(tool)] = str(attentionDefaults, toString(tool));
    }
    w.profileKeys = strings(root->find("profile_keys"));
    if (w.profileKeys.empty()) error("webui.yaml: no profile_keys");
    auto list = [&](std::string_view key) -> std::vector<const Node*> {
      const Node* l = root->find(key);
      if (l == nullptr || !l->isSequence()) {
        error("webui.yaml: no " + std::string(key) + " list");
        return {};
      }
      return l->resolved()->items;
    };
    for (const Node* e : list("attention")) {
      AttentionBackend b;
      b.id = str(e, "id");
      b.label = str(e, "label");
      b.scoreFactor = figure(e, "score_factor", "webui.yaml: attention");
      b.adaptive = boolean(e, "adaptive", "webui.yaml: attention");
      if (b.adaptive) {  // only a backend that slices itself reads these (optional in the schema for the others)
        b.needFactor = figure(e, "need_factor", "webui.yaml: attention " + b.id);
        b.maxSlices = integer(e, "max_slices", "webui.yaml: attention " + b.id);
      }
      b.patchesVae = boolean(e, "patches_vae", "webui.yaml: attention");
      b.comfyGuessByDtype = flag(e, "comfy_guess_by_dtype");
      b.fp32Scores = flag(e, "fp32_scores");
      w.attention.push_back(std::move(b));
    }
    for (const Node* e : list("families")) {
      GenerationFamily f;
      f.id = str(e, "id");
      f.aliases = strings(e->find("aliases"));
      f.arch = str(e, "arch");
      f.defaultSize = integer(e, "default_size", "webui.yaml: family");
      f.tools = strings(e->find("tools"));
      const Node* attention = e->find("attention");
      f.attentionHeads = integer(attention, "heads", "webui.yaml: family attention");
      f.attentionDownsample = std::max(1, integer(attention, "downsample", "webui.yaml: family attention"));
      f.unetActBytesPerLatentPixel = figure(e, "unet_act_bytes_per_latent_pixel", "webui.yaml: family");
      f.lowvramBlockParams = num(e, "lowvram_block_params", 0);
      f.vaeFp16Overflows = flag(e, "vae_fp16_overflows");
      comfyMemory(f, e, "webui.yaml: family " + f.id);
      if (const Architecture* a = k_.architectures.byId(f.arch); a == nullptr) {
        error("webui.yaml: family " + f.id + ": unknown arch " + f.arch);
      } else if (k_.memory.vae(a->vae.family) == nullptr) {  // the hires pass's VAE encode reads its figure
        error("webui.yaml: family " + f.id + ": memory.yaml has no vae `" + a->vae.family + "`");
      }
      w.families.push_back(std::move(f));
    }
    for (const Node* e : list("controlnets")) {
      w.controlnets.push_back({str(e, "id"), strings(e->find("match")), str(e, "family"), figure(e, "params", "webui.yaml: controlnets"),
                               str(e, "label"), static_cast<int>(num(e, "residual_maps", 0))});
    }
    w.preprocessorActBytesPerPixel = figure(root, "preprocessor_act_bytes_per_pixel", "webui.yaml");
    w.preprocessorResolution = integer(root, "preprocessor_resolution", "webui.yaml");
    for (const Node* e : list("preprocessors")) {
      w.preprocessors.push_back({str(e, "id"), strings(e->find("match")), figure(e, "bytes", "webui.yaml: preprocessors")});
    }
    for (const Node* e : list("flags")) {
      WebUiFlag f;
      f.name = str(e, "name");
      f.tools = strings(e->find("tools"));
      f.ignoredBy = strings(e->find("ignored_by"));
      f.takesValue = flag(e, "value");
      if (auto effect = parseFlagEffect(str(e, "effect"))) f.effect = *effect;
      else error("webui.yaml: flag " + f.name + ": effect `" + str(e, "effect") + "` is not a FlagEffect");
      f.backend = str(e, "backend");
      f.deprecated = str(e, "deprecated");
      if (f.effect == FlagEffect::Attention && w.backend(f.backend) == nullptr) {
        error("webui.yaml: flag " + f.name + ": unknown attention backend `" + f.backend + "`");
      }
      if (f.effect != FlagEffect::Attention && !f.backend.empty()) error("webui.yaml: flag " + f.name + ": a backend without the attention effect");
      w.flags.push_back(std::move(f));
    }
    for (const auto& [family, substrings] : w.checkpointFamilies) {
      if (w.family(family) == nullptr) error("webui.yaml: checkpoint_families: unknown family " + family);
    }
    if (w.family(w.checkpointFamilyOtherwise) == nullptr) error("webui.yaml: checkpoint_families: unknown family " + w.checkpointFamilyOtherwise);
    for (const auto& id : w.defaultAttentions) {
      if (w.backend(id) == nullptr) error("webui.yaml: default_attention: unknown backend `" + id + "`");
    }
    w.comfyXpuAttention = str(root, "comfy_xpu_attention");
    if (w.backend(w.comfyXpuAttention) == nullptr) error("webui.yaml: comfy_xpu_attention: unknown backend `" + w.comfyXpuAttention + "`");
    const Node* amd = root->find("comfy_amd_attention");
    w.comfyAmdPytorchArchs = strings(amd ? amd->find("pytorch_archs") : nullptr);
    w.comfyAmdMathArchs = strings(amd ? amd->find("math_archs") : nullptr);
    w.comfyAmdAttentionMath = str(amd, "math");
    w.comfyAmdAttentionOtherwise = str(amd, "otherwise");
    for (const KnowledgeText id : {w.comfyAmdAttentionMath, w.comfyAmdAttentionOtherwise}) {
      if (w.backend(id) == nullptr) error("webui.yaml: comfy_amd_attention: unknown backend `" + id + "`");
    }
  }

  // A trainer's scripts and argument table (rules/sd-scripts.yaml).
  void trainerTool(std::string_view file, TrainerTool& tool) {
    const std::string where = std::string(file) + ".yaml";
    const Node* root = load("rules/" + std::string(file) + ".yaml");
    if (root == nullptr) return;
    const auto requiredList = [&](std::string_view key) {
      const Node* l = root->find(key);
      if (l == nullptr || !l->isSequence()) error(where + ": no " + std::string(key) + " list");
      return items(l);
    };
    for (const Node* e : requiredList("groups")) {
      TrainerArgGroup group{str(e, "id"), {}};
      for (const Node* a : items(e->find("args"))) {
        TrainerArg arg{str(a, "name"), strings(a->find("aliases")), flag(a, "flag"), flag(a, "list"), {}};
        if (const Node* d = a->find("default"); d != nullptr && d->isScalar()) arg.defaultText = text(d);
        group.args.push_back(std::move(arg));
      }
      tool.groups.push_back(std::move(group));
    }
    for (const Node* e : requiredList("scripts")) {
      const std::string role = str(e, "training");
      TrainerScript script;
      script.name = str(e, "name");
      script.arch = str(e, "arch");
      script.role = role == "finetune"             ? TrainerRole::Finetune
                    : role == "cache_latents"      ? TrainerRole::CacheLatents
                    : role == "cache_text_encoder" ? TrainerRole::CacheTextEncoder
                                                   : TrainerRole::Lora;
      for (const Node* c : items(e->find("fp8_changes"))) {
        script.fp8Changes.push_back({str(c, "until"), str(c, "why"), figure(c, "fp8_bf16_params", where + ": fp8_changes")});
      }
      for (const Node* c : items(e->find("fp32_prepare"))) script.fp32Prepares.push_back({str(c, "until"), str(c, "why")});
      script.diffusersXformersVaeOnly = flag(e, "diffusers_xformers_vae_only");
      script.vaeDtype = str(e, "vae_dtype");
      script.vaeDtypeFixed = flag(e, "vae_dtype_fixed");
      if (const Node* arg = e->find("task_arg")) script.taskArg = text(arg);
      script.taskDefault = str(e, "task_default");
      if (const Node* sec = e->find("sections"); sec && sec->isMapping()) {
        const std::string at = where + ": script " + script.name + ": sections";
        script.sections = TrainerSections{str(sec, "window_key"), integer(sec, "window", at), integer(sec, "context_latent_frames", at)};
      }
      for (const Node* t : items(e->find("task_archs"))) {
        script.taskArchs.emplace_back(str(t, "task"), str(t, "arch"));
        if (k_.architectures.byId(str(t, "arch")) == nullptr) error(where + ": script " + script.name + ": unknown arch " + str(t, "arch"));
      }
      if (!script.arch.empty() && k_.architectures.byId(script.arch) == nullptr) error(where + ": script " + script.name + ": unknown arch " + script.arch);
      // The groups by index: the compiled knowledge carries each group's id once, not once per script.
      for (const auto& g : strings(e->find("groups"))) {
        const auto it = std::find_if(tool.groups.begin(), tool.groups.end(), [&](const TrainerArgGroup& x) { return x.id == g; });
        if (it == tool.groups.end()) error(where + ": script " + script.name + ": unknown group " + g);
        else script.groups.push_back(static_cast<int>(it - tool.groups.begin()));
      }
      tool.scripts.push_back(std::move(script));
    }
    tool.index();
    tool.id = k_.kept.keep(std::string(file));
    const Node* recognise = root->find("recognise");
    tool.datasetKeys = strings(recognise ? recognise->find("dataset_keys") : nullptr);
    tool.configKeys = strings(recognise ? recognise->find("config_keys") : nullptr);
    tool.foreignKeys = strings(recognise ? recognise->find("foreign_keys") : nullptr);
    for (const Node* e : items(root->find("gui_keys"))) tool.guiKeys.emplace_back(str(e, "key"), str(e, "arg"));
    for (const Node* e : items(root->find("gui_scripts"))) tool.guiScripts.push_back({str(e, "key"), str(e, "lora"), str(e, "finetune")});
    const Node* dtypes = root->find("dtype_values");
    tool.dtypeArgs = strings(dtypes ? dtypes->find("args") : nullptr);
    tool.dtypeNames = strings(dtypes ? dtypes->find("accepted") : nullptr);
  }

  void logs() {
    const Node* root = load("rules/logs.yaml");
    if (root == nullptr) return;
    for (auto& problem : readLogMarkers(root, k_.logs.value(), k_.kept)) error("logs.yaml: " + problem);
  }

  void otherTrainers() {
    const Node* root = load("rules/other-trainers.yaml");
    if (root == nullptr) return;
    for (const Node* entry : items(root->find("trainers"))) {
      OtherTrainer& t = k_.otherTrainers.value().trainers.emplace_back();
      t.name = str(entry, "name");
      t.what = str(entry, "what");
      for (const Node* signature : items(entry->find("signatures"))) {
        t.signatures.push_back(strings(signature));
        if (t.signatures.back().empty()) error("other-trainers.yaml: " + t.name + ": an empty signature would match every file");
      }
    }
  }

  void advice() {
    const Node* root = load("rules/advice.yaml");
    if (root == nullptr) return;
    Advice& a = k_.advice;
    const Node* steps = root->find("resolution_steps");
    for (auto [key, list] : {std::pair{"lower", &a.lowerResolutions}, std::pair{"raise", &a.raiseResolutions}}) {
      const Node* l = steps ? steps->find(key) : nullptr;
      if (l == nullptr || !l->isSequence()) {
        error(std::string("advice.yaml: no resolution_steps.") + key);
        continue;
      }
      for (const Node* item : l->resolved()->items) list->push_back(item->isNumber() ? static_cast<int>(item->number()) : 0);
      std::sort(list->begin(), list->end());
    }
    const Node* t = root->find("thresholds");
    a.logDisagreementFraction = figure(t, "log_disagreement_fraction", "advice.yaml: thresholds");
    a.negligibleBytes = figure(t, "negligible_gib", "advice.yaml: thresholds") * (1 << 30);
  }

 private:
  Knowledge& k_;
  const RulesFile& file_;
  std::vector<std::string>& errors_;
};

}  // namespace

std::unique_ptr<Knowledge> loadKnowledge(const RulesFile& file, std::vector<std::string>& errors) {
  auto k = std::make_unique<Knowledge>();
  Loader loader(*k, file, errors);
  loader.catalog();
  loader.architectures();
  loader.gpus();
  loader.memory();
  loader.webui();
  loader.comfyui();  // after webui: its families are webui.yaml's
  loader.trainerTool("sd-scripts", k->sdScripts.value());
  loader.trainerTool("musubi-tuner", k->musubiTuner.value());
  loader.advice();
  loader.logs();
  loader.otherTrainers();
  loader.schema();
  return k;
}

}  // namespace oomlint
