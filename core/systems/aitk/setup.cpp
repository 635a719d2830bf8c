#include "systems/aitk/setup.h"

#include <algorithm>

#include "base/text/ascii.h"
#include "systems/aitk/lora_targets.h"

namespace oomlint {

namespace {

int intOr(const Node* v, int fallback) { return v && v->isNumber() ? clampedInt(v->number()) : fallback; }

// resolution is an int or a list; each value becomes its own dataset in AI Toolkit.
std::vector<int> resolutionsOf(const Section& d) {
  std::vector<int> out;
  if (const Node* r = d.written("resolution")) {
    if (r->isSequence()) {
      for (const Node* item : r->resolved()->items) {
        if (item->isNumber() && item->number() > 0) out.push_back(clampedInt(item->number()));
      }
    } else if (r->isNumber() && r->number() > 0) {
      out.push_back(clampedInt(r->number()));
    }
  }
  if (out.empty()) out.push_back(clampedInt(d.number("resolution", 512)));
  return out;
}

int controlCount(const Section& d) {
  int n = 0;
  if (const Node* c = d.written("control_path")) n += c->isSequence() ? static_cast<int>(c->resolved()->items.size()) : (c->isNull() ? 0 : 1);
  for (const char* key : {"control_path_1", "control_path_2", "control_path_3"}) {
    if (!d.string(key).empty()) ++n;
  }
  return n;
}

}  // namespace

bool TrainingSetup::anyLatentCache() const {
  return std::any_of(datasets.begin(), datasets.end(), [](const DatasetShape& d) { return d.cachesLatents; });
}

bool TrainingSetup::encodesControlsInStep(const DatasetShape& d) const {
  return d.controls > 0 && arch->denoiser.controlTokenFactor > 0;
}

bool TrainingSetup::vaeStaysResident() const {
  return datasets.empty() || std::any_of(datasets.begin(), datasets.end(),
                                         [&](const DatasetShape& d) { return !d.cachesLatents || encodesControlsInStep(d); });
}

void TrainingSetup::setTrainBatch(int batch) {
  trainBatch = batch;
  for (auto& d : datasets) {
    if (d.followsTrainBatch) d.batch = batch * captionBatchFactor;
  }
}

std::optional<TrainingSetup> setupFrom(const TrainerProcess& p) {
  if (p.arch == nullptr) return std::nullopt;
  TrainingSetup s;
  s.arch = borrowed(*p.arch);
  if (const ArchVariant* v = p.arch->variantFor(p.model.string("name_or_path") + " " + p.archWritten)) {
    auto variant = std::make_shared<Architecture>(*p.arch);
    variant->denoiser = v->denoiser;
    if (!v->label.empty()) variant->label = v->label;
    s.arch = std::move(variant);
  }
  const Section& m = p.model;
  const Section& t = p.train;
  s.trainDtype = t.string("dtype");
  // No autocast: the model runs in train.dtype (TrainConfig's default fp32), its activations too.
  if (canonicalDtype(s.trainDtype) == "float32") s.activationBytes = 4;
  // A value the schema refuses (OL203, said at its position) leaves the model's dtype in place.
  if (const std::string vae = m.string("vae_dtype"); isTorchDtype(vae)) s.vaeDtype = vae;
  s.sampleDecodeUpcast = s.arch->vae.upcastsFp16SampleDecode && canonicalDtype(s.vaeWeightDtype()) == "float16";
  s.quantize = m.flag("quantize");
  s.quantizeTe = m.has("quantize_te") ? m.flag("quantize_te") : s.quantize;
  s.qtype = m.string("qtype");
  s.qtypeTe = m.string("qtype_te");
  s.accuracyRecoveryAdapter = s.quantize && (s.qtype.find('|') != std::string::npos || !m.string("accuracy_recovery_adapter").empty());
  s.lowVram = m.flag("low_vram");
  if (const Node* kwargs = m.written("model_kwargs"); kwargs && kwargs->isMapping()) {
    const Node* match = kwargs->find("match_target_res");
    s.controlsAtTargetSize = match != nullptr && match->truthy();
    const Node* tiling = kwargs->find("vae_tiling");
    s.vaeTilingAsked = tiling != nullptr && tiling->truthy();
  }
  s.layerOffloading = m.flag("layer_offloading") || m.flag("auto_memory");
  s.offloadTransformer = std::clamp(m.number("layer_offloading_transformer_percent", 1.0), 0.0, 1.0);
  s.offloadTextEncoder = std::clamp(m.number("layer_offloading_text_encoder_percent", 1.0), 0.0, 1.0);
  if (s.layerOffloading) {
    // AI Toolkit swaps qfloat8 for torchao float8 when layer offloading is on.
    if (s.qtype == "qfloat8") s.qtype = "float8";
    if (s.qtypeTe == "qfloat8") s.qtypeTe = "float8";
  }
  if (s.arch->denoiser.teQtypeFromModel) {
    // This loader quantizes the text encoder with model.qtype, its accuracy-recovery adapter left to the transformer.
    s.qtypeTe = s.qtype.empty() && s.layerOffloading ? "float8" : qtypeFormat(s.qtype);
  }
  s.unloadTextEncoder = t.flag("unload_text_encoder");
  s.cacheTextEmbeddings = t.flag("cache_text_embeddings") ||
                          std::any_of(p.datasets.begin(), p.datasets.end(), [](const Section& d) { return d.flag("cache_text_embeddings"); });
  s.trainTextEncoder = t.flag("train_text_encoder");
  s.fullFinetune = !p.network.present() && !p.process.has("adapter");
  // Without a network no Linear casts its input to fp32: a trained bf16 Linear saves its bf16 input, which
  // the census's bf16-LoRA run (the autocast_* figures) is closest to. An fp32 model has no cast to add: every
  // tensor is fp32, the autocast figures doubled.
  s.loraInputsFp32 = !s.fullFinetune && s.activationBytes < 4;
  s.networkType = p.network.string("type");
  if (s.networkType.empty()) s.networkType = "lora";
  s.rank = p.network.has("linear") ? p.network.number("linear", 4) : p.network.number("rank", 4);
  s.loraTargetsNarrowed = !s.fullFinetune && narrowingFilter(p).has_value();
  s.optimizer = t.string("optimizer");
  const Node* ema = t.written("ema_config");
  s.ema = ema && ema->isMapping() && ema->find("use_ema") && ema->find("use_ema")->truthy();
  s.gradientCheckpointing = t.flag("gradient_checkpointing");
  s.trainBatch = std::max(1, clampedInt(t.number("batch_size", 1)));
  // short_and_long_captions doubles the batch (TrainConfig comment).
  s.captionBatchFactor = t.flag("short_and_long_captions") ? 2 : 1;
  for (std::size_t i = 0; i < p.datasets.size(); ++i) {
    const Section& d = p.datasets[i];
    const bool augmented = (d.written("augments") && d.written("augments")->truthy()) ||
                           (d.written("augmentations") && d.written("augmentations")->truthy());
    for (int res : resolutionsOf(d)) {
      DatasetShape shape;
      shape.index = i;
      shape.resolution = res;
      shape.frames = std::max(1, intOr(d.written("num_frames"), 1));
      shape.followsTrainBatch = !d.has("batch_size");
      const int batch = shape.followsTrainBatch ? s.trainBatch : std::max(1, clampedInt(d.number("batch_size", s.trainBatch)));
      shape.batch = batch * s.captionBatchFactor;
      shape.controls = controlCount(d);
      shape.cachesLatents = !augmented && (d.flag("cache_latents") || d.flag("cache_latents_to_disk"));
      shape.latentsInMemory = !augmented && d.flag("cache_latents");
      s.datasets.push_back(shape);
    }
  }
  // The data loader takes its workers from the first dataset (toolkit/data_loader.py:727).
  s.numWorkers = 0;
  if (!p.datasets.empty()) {
    s.numWorkers = std::max(0, clampedInt(p.datasets.front().number("num_workers", 2)));
    s.prefetchFactor = std::max(1, clampedInt(p.datasets.front().number("prefetch_factor", 2)));
  }
  const std::string modelPath = m.string("name_or_path");
  s.singleFileCheckpoint = modelPath.ends_with(".safetensors") || modelPath.ends_with(".ckpt");
  for (const char* pass : {"diff_output_preservation", "blank_prompt_preservation", "do_prior_divergence", "do_guidance_loss",
                           "do_differential_guidance"}) {
    if (t.flag(pass)) ++s.extraForwardPasses;
  }
  s.preservationLoss = t.flag("diff_output_preservation") || t.flag("blank_prompt_preservation");
  const bool sampling = !t.flag("disable_sampling") && p.sample.present();
  s.baselineSample = sampling && !t.flag("skip_first_sample");
  s.periodicSample = sampling && p.sample.number("sample_every", 100) > 0;
  s.sampleWidth = clampedInt(p.sample.number("width", 512));
  s.sampleHeight = clampedInt(p.sample.number("height", 512));
  s.sampleFrames = std::max(1, clampedInt(p.sample.number("num_frames", 1)));
  s.guidanceScale = p.sample.number("guidance_scale", 7);
  // Sample items may ask for more: the peak is the largest.
  if (const Node* samples = p.sample.written("samples"); samples && samples->isSequence()) {
    for (const Node* item : samples->resolved()->items) {
      if (!item->isMapping()) continue;
      const int w = intOr(item->find("width"), s.sampleWidth);
      const int h = intOr(item->find("height"), s.sampleHeight);
      if (static_cast<long>(w) * h > static_cast<long>(s.sampleWidth) * s.sampleHeight) {
        s.sampleWidth = w;
        s.sampleHeight = h;
      }
      s.sampleFrames = std::max(s.sampleFrames, intOr(item->find("num_frames"), 1));
      // A prompt's control images (ctrl_img, ctrl_img_1..3) condition the edit models' samples as their training does.
      int controls = 0;
      for (std::string_view key : {"ctrl_img", "ctrl_img_1", "ctrl_img_2", "ctrl_img_3"}) controls += !scalarText(item, key).empty();
      s.sampleControls = std::max(s.sampleControls, controls);
    }
  }
  return s;
}

void quantizeModel(TrainingSetup& t, bool encoderFollows) {
  t.quantize = true;
  if (t.qtype.empty()) t.qtype = "qfloat8";
  if (encoderFollows) {
    t.quantizeTe = true;
    if (t.qtypeTe.empty()) t.qtypeTe = "qfloat8";
  }
}

bool isTorchDtype(std::string_view dtype) {
  const std::string d = canonicalDtype(dtype);
  return d == "float32" || d == "float16" || d == "bfloat16" || d == "float8";
}

bool TrainingSetup::trainsTextEncoders() const {
  return trainTextEncoder && std::any_of(arch->textEncoders.begin(), arch->textEncoders.end(),
                                         [](const TextEncoder& te) { return te.loraParamsPerRank > 0; });
}

const std::string& TrainingSetup::textEncoderDtype() const {
  return trainsTextEncoders() || frozenTextEncoderDtype.empty() ? trainDtype : frozenTextEncoderDtype;
}

double TrainingSetup::vaeElementBytes() const {
  if (vaeDtype.empty()) return activationBytes;
  return canonicalDtype(vaeDtype) == "float32" ? 4 : 2;
}

std::string canonicalDtype(std::string_view dtype) {
  const std::string d = lowercase(dtype);
  if (d == "fp32" || d == "float" || d == "float32" || d == "single") return "float32";
  if (d == "fp16" || d == "half" || d == "float16") return "float16";
  if (d == "bf16" || d == "bfloat16") return "bfloat16";
  if (d == "8bit" || d == "e4m3fn" || d == "float8") return "float8";
  return d;
}

}  // namespace oomlint
