// Small helpers shared by the check files: what several rules read the same way.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>

#include "systems/aitk/job.h"
#include "base/text/ascii.h"

namespace oomlint {

inline std::string code(std::string_view s) { return "`" + std::string(s) + "`"; }

// The trigger word a process trains with: the process's, or any dataset's.
inline bool hasTriggerWord(const TrainerProcess& p) {
  if (!p.process.string("trigger_word").empty()) return true;
  return std::any_of(p.datasets.begin(), p.datasets.end(), [](const Section& d) { return !d.string("trigger_word").empty(); });
}

// Whether any dataset caches its text embeddings (OL305 when not all do, OL309 with a trained text encoder).
inline bool anyDatasetCachesTextEmbeddings(const TrainerProcess& p) {
  return std::any_of(p.datasets.begin(), p.datasets.end(), [](const Section& d) { return d.flag("cache_text_embeddings"); });
}

inline std::string archLabel(const TrainerProcess& p) {
  return p.arch ? std::string(p.arch->label.empty() ? p.arch->arch : p.arch->label) : p.archWritten;
}

// Both the modern and the legacy accumulation key are written: OL301 when they conflict, else OL404.
inline bool bothAccumulationKeys(const Section& t) {
  return t.has("gradient_accumulation") && t.has("gradient_accumulation_steps");
}

// AI Toolkit's test (validate_configs): gradient_accumulation > 1 and gradient_accumulation_steps != 1.
inline bool accumulationKeysConflict(const Section& t) {
  return t.number("gradient_accumulation", 1) > 1 && t.number("gradient_accumulation_steps", 1) != 1;
}

// quantize_te defaults to the value of quantize (config_modules.py).
inline bool quantizesTextEncoder(const Section& model) {
  return model.has("quantize_te") ? model.flag("quantize_te") : model.flag("quantize");
}

// The key that turns layer offloading on: auto_memory is its deprecated spelling (and its default), read
// when it alone is written.
inline std::string_view layerOffloadingKey(const Section& model) {
  return model.has("layer_offloading") || !model.has("auto_memory") ? "layer_offloading" : "auto_memory";
}

// Every frame count a process writes (each dataset's num_frames, sample.num_frames, each
// sample.samples[i].num_frames) that is a whole number above 1: `visit(node, frames, path)`.
template <typename Visit>
void forEachFrameCount(const TrainerProcess& p, Visit visit) {
  auto one = [&](const Node* value, const KeyPath& path) {
    if (value == nullptr || !value->isNumber()) return;
    const double frames = value->number();
    if (frames <= 1 || frames != std::floor(frames)) return;
    visit(*value, static_cast<long>(frames), path);
  };
  for (const auto& d : p.datasets) one(d.written("num_frames"), d.pathOf("num_frames"));
  one(p.sample.written("num_frames"), p.sample.pathOf("num_frames"));
  if (const Node* samples = p.sample.written("samples"); samples && samples->isSequence()) {
    const auto& items = samples->resolved()->items;
    for (std::size_t i = 0; i < items.size(); ++i) {
      const Node* item = items[i]->resolved();
      if (item->isMapping()) one(item->find("num_frames"), p.sample.pathOf("samples").item(i).key("num_frames"));
    }
  }
}

}  // namespace oomlint
