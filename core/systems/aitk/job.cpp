#include "systems/aitk/job.h"

#include <cstdlib>
#include <optional>

namespace oomlint {

namespace {

Section sectionOf(const Schema& schema, const Node* parentMap, std::string_view key, const KeyPath& basePath) {
  const MapEntry* entry = parentMap ? parentMap->findEntry(key) : nullptr;
  const SectionSpec* spec = schema.section(key);
  if (entry == nullptr) return Section(nullptr, nullptr, spec, basePath.key(key));
  return Section(entry->value, entry->key, spec, basePath.key(key));
}

}  // namespace

const MapEntry* Section::entry(std::string_view key) const { return present() ? map_->findEntry(key) : nullptr; }

const Node* Section::written(std::string_view key) const {
  const MapEntry* e = entry(key);
  return e ? e->value->resolved() : nullptr;
}

const Node* Section::effective(std::string_view key) const {
  const KeySpec* spec = spec_ ? spec_->find(key) : nullptr;
  if (const Node* v = written(key); v && (!spec || typeAccepts(spec->types, v))) return v;
  return spec && spec->hasDefault ? spec->defaultValue : nullptr;
}

bool Section::flag(std::string_view key) const {
  // Python tests a flag by truthiness, whatever its type: a quoted "false" is on.
  if (const Node* v = written(key)) return v->truthy();
  const Node* v = effective(key);
  return v != nullptr && v->truthy();
}

double Section::number(std::string_view key, double fallback) const {
  const Node* v = effective(key);
  return v && v->isNumber() ? v->number() : fallback;
}

std::string Section::string(std::string_view key) const {
  const Node* v = effective(key);
  return v && v->isScalar() && !v->isNull() ? v->resolved()->text : std::string();
}

Range Section::keyRange(std::string_view key) const {
  const MapEntry* e = entry(key);
  return e ? e->key->range : anchorRange();
}

Range Section::valueRange(std::string_view key) const {
  const MapEntry* e = entry(key);
  return e ? e->value->range : anchorRange();
}

Range Section::anchorRange() const {
  if (key_ != nullptr) return key_->range;
  if (map_ != nullptr) {
    // A list item has no key: point at its first entry.
    if (map_->kind == NodeKind::Mapping && !map_->entries.empty()) return map_->entries.front().key->range;
    return map_->range;
  }
  return {};
}

bool isTrainerProcessType(const Schema& schema, std::string_view type) {
  const ValueSet* trainers = schema.valueSet("trainer_process_type");
  return trainers != nullptr && trainers->accepts(type);
}

JobModel buildJobModel(const Node* root, const Knowledge& k) {
  JobModel job;
  job.root = root;
  if (root == nullptr || !root->isMapping()) return job;
  if (const MapEntry* e = root->findEntry("job"); e && e->value->isScalar()) {
    job.jobType = e->value->resolved()->text;
    job.jobRange = e->value->range;
  }
  const MapEntry* configEntry = root->findEntry("config");
  job.config = configEntry ? Section(configEntry->value, configEntry->key, k.schema.section("config"), KeyPath::of({"config"}))
                           : Section(nullptr, nullptr, k.schema.section("config"), KeyPath::of({"config"}));
  const Node* processes = job.config.written("process");
  if (processes == nullptr || !processes->isSequence()) return job;
  const auto& items = processes->resolved()->items;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Node* node = items[i]->resolved();
    if (node->kind != NodeKind::Mapping) continue;
    const MapEntry* typeEntry = node->findEntry("type");
    if (typeEntry == nullptr || !typeEntry->value->isScalar()) continue;
    TrainerProcess p;
    p.index = i;
    p.path = KeyPath::of({"config", "process"}).item(i);
    p.node = node;
    p.type = typeEntry->value->resolved()->text;
    p.typeRange = typeEntry->value->range;
    if (!isTrainerProcessType(k.schema, p.type)) continue;
    p.process = Section(node, nullptr, k.schema.section("process"), p.path);
    for (auto [field, key] : {std::pair{&p.model, "model"}, {&p.train, "train"}, {&p.sample, "sample"},
                              {&p.network, "network"}, {&p.save, "save"}, {&p.logging, "logging"}}) {
      *field = sectionOf(k.schema, node, key, p.path);
    }
    if (const Node* datasets = node->find("datasets"); datasets && datasets->isSequence()) {
      const auto& list = datasets->resolved()->items;
      for (std::size_t d = 0; d < list.size(); ++d) {
        p.datasets.emplace_back(list[d], nullptr, k.schema.section("dataset"),
                                p.path.key("datasets").item(d));
      }
    }
    p.archWritten = p.model.string("arch");
    if (!p.archWritten.empty()) {
      p.arch = k.architectures.find(p.archWritten);
    } else {
      for (const auto& arch : k.architectures.entries()) {
        if (!arch.legacyFlag.empty() && p.model.flag(arch.legacyFlag)) {
          p.arch = &*arch.details;
          break;
        }
      }
      if (p.arch == nullptr) p.arch = k.architectures.find("sd1");
    }
    job.trainers.push_back(std::move(p));
  }
  return job;
}

}  // namespace oomlint
