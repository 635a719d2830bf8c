// The typed view of an AI Toolkit job: which processes train, which model they load, and each
// setting's effective value (written, or AI Toolkit's default from the schema) with the node it
// came from, so every check can both reason about values and point at exact ranges.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/document/key_path.h"
#include "base/document/node.h"
#include "base/knowledge/architectures.h"
#include "base/knowledge/knowledge.h"
#include "base/knowledge/schema.h"

namespace oomlint {

// One config section (train:, model:, a dataset…) of one process.
class Section {
 public:
  Section() = default;
  Section(const Node* map, const Node* key, const SectionSpec* spec, KeyPath path)
      : map_(map ? map->resolved() : nullptr), key_(key), spec_(spec), path_(std::move(path)) {}

  bool present() const { return map_ != nullptr && map_->kind == NodeKind::Mapping; }
  const KeyPath& path() const { return path_; }
  KeyPath pathOf(std::string_view key) const { return path_.key(key); }

  // The written value (aliases resolved), or nullptr when the key is absent.
  const Node* written(std::string_view key) const;
  const MapEntry* entry(std::string_view key) const;
  bool has(std::string_view key) const { return written(key) != nullptr; }

  // Effective values: the written one when it has the right type, else the schema default.
  bool flag(std::string_view key) const;
  double number(std::string_view key, double fallback = 0) const;
  std::string string(std::string_view key) const;

  // Where to point: the key, the value, or the section itself.
  Range keyRange(std::string_view key) const;
  Range valueRange(std::string_view key) const;
  Range anchorRange() const;

 private:
  const Node* effective(std::string_view key) const;

  const Node* map_ = nullptr;
  const Node* key_ = nullptr;  // the key that names this section (`train:`), or the list item
  const SectionSpec* spec_ = nullptr;
  KeyPath path_;
};

struct TrainerProcess {
  std::size_t index = 0;
  KeyPath path;            // config.process[0]
  const Node* node = nullptr;
  std::string type;        // sd_trainer, diffusion_trainer, …
  Range typeRange;
  Section process, model, train, sample, network, save, logging;
  std::vector<Section> datasets;
  const Architecture* arch = nullptr;  // null when model.arch names nothing AI Toolkit knows
  std::string archWritten;             // model.arch as written, empty if absent
};

struct JobModel {
  const Node* root = nullptr;
  std::string jobType;
  Range jobRange;
  Section config;
  std::vector<TrainerProcess> trainers;
};

// Process types that run the SD trainer family (the ones whose settings oomlint checks).
bool isTrainerProcessType(const Schema& schema, std::string_view type);

// The typed view of the job at `root`, its sections' defaults and architectures read from `knowledge`.
JobModel buildJobModel(const Node* root, const Knowledge& knowledge);

}  // namespace oomlint
