// OL105, OL201-OL206, OL208: every key against rules/ai-toolkit/schema.yaml. These rules share one walk
// of the document (each key's spec decides its type, value, range, required and deprecated findings at
// once, and an alias target is walked once), so they stay in one file, unlike the other checks.
#include <cmath>
#include <cstdlib>
#include <set>

#include "systems/aitk/checks/checks.h"
#include "base/knowledge/memory_model.h"
#include "base/document/scalar_resolver.h"
#include "base/text/suggest.h"

namespace oomlint {

namespace {

// Sections a misplaced key is most often meant for, in the order they are suggested.
constexpr std::string_view kTrainerSections[] = {"model", "train", "sample", "network", "save", "dataset", "process", "logging"};

std::string quote(std::string_view s) { return "`" + std::string(s) + "`"; }

// How a key is named in messages: its last two path segments ("network.type", "datasets[0].type").
std::string shortPath(const KeyPath& keyPath) {
  const std::string printed = keyPath.toString();
  const std::string_view path = printed;
  const auto last = path.rfind('.');
  if (last == std::string_view::npos || last == 0) return std::string(path);
  const auto previous = path.rfind('.', last - 1);
  return std::string(previous == std::string_view::npos ? path : path.substr(previous + 1));
}

// How a finding names the key it is about: made only when one is reported, not for every key walked.
struct KeyName {
  const KeyPath& path;
  bool eachItem = false;     // `path` is an item's: named as each item of its list
  std::string_view as = {};  // a name of its own instead of the path's
  std::string text() const {
    if (!as.empty()) return quote(as);
    return eachItem ? "each item of " + quote(shortPath(path.parent())) : quote(shortPath(path));
  }
};

std::string describeValue(const Node* v) {
  v = v->resolved();
  switch (v->kind) {
    case NodeKind::Mapping: return "a mapping";
    case NodeKind::Sequence: return "a list";
    case NodeKind::Null: return "null (an empty value)";
    case NodeKind::Alias: return "an alias";
    case NodeKind::Scalar: break;
  }
  switch (v->type) {
    case ScalarType::Null: return "null (an empty value)";
    case ScalarType::Bool: return std::string("the boolean ") + (v->boolValue ? "true" : "false");
    case ScalarType::Int: return "the integer " + v->text;
    case ScalarType::Float: return "the float " + v->text;
    case ScalarType::String: return "the string \"" + v->text + "\"";
  }
  return "a value";
}

class SchemaWalker {
 public:
  SchemaWalker(const Knowledge& knowledge, Findings& findings) : k_(knowledge), findings_(findings) {}

  void walk(const Node* root) {
    const SectionSpec* rootSpec = k_.schema.section("root");
    if (rootSpec == nullptr || root == nullptr || !root->isMapping()) return;
    Range start{root->range.start, root->range.start};
    if (const MapEntry* job = root->findEntry("job"); job && job->value->isScalar()) {
      const std::string& type = job->value->resolved()->text;
      trainingJob_ = type == "extension" || type == "train";
      if (!trainingJob_ && k_.schema.valueSet("job_type") && k_.schema.valueSet("job_type")->accepts(type)) {
        findings_.report(RuleId::OL208, job->value->range, KeyPath::of({"job"}),
                         "`job: " + type + "` is not a training job; oomlint checks only its top level");
      }
    }
    walkSection(root, *rootSpec, start);
  }

 private:
  // The walk's place, path_, one segment deeper while it lives.
  class Descend {
   public:
    template <class Segment>
    Descend(KeyPath& path, Segment segment) : path_(path) {
      path_.push(segment);
    }
    Descend(const Descend&) = delete;
    Descend& operator=(const Descend&) = delete;
    ~Descend() { path_.pop(); }

   private:
    KeyPath& path_;
  };

  // The section at path_.
  void walkSection(const Node* map, const SectionSpec& spec, Range anchor) {
    const KeyPath& path = path_;
    map = map->resolved();
    if (!visited_.insert({map, &spec}).second) return;  // an alias target is checked once
    if (spec.name == "process" && !isTrainer(map, path)) return;
    for (const auto& entry : map->allEntries()) {
      const Node* key = entry.key->resolved();
      if (key->kind != NodeKind::Scalar) {
        findings_.report(RuleId::OL202, entry.key->range, path, "keys must be plain names; this key is " + describeValue(key));
        continue;
      }
      const Descend child(path_, std::string_view(key->text));
      if (const KeySpec* ks = spec.find(key->text)) {
        checkValue(entry, *ks);
      } else if (!spec.open) {
        reportUnknown(entry, spec);
      }
    }
    spec.forEachKey([&](const SchemaKey& key) {
      if (key.required && map->findEntry(key.name) == nullptr) {
        findings_.report(RuleId::OL205, anchor, path.key(key.name),
                         "missing required key " + quote(key.name) + (path.empty() ? " at the top level" : " in " + quote(path.toString())) +
                             "; AI Toolkit refuses to start without it");
      }
    });
    if (spec.name == "process" && map->findEntry("model") == nullptr) {
      findings_.report(RuleId::OL205, anchor, path.key("model"),
                       "this trainer process has no `model` section; AI Toolkit raises \"name_or_path must be specified\"");
    }
  }

  // Only trainer processes of training jobs are checked past their type: other process kinds have
  // schemas of their own that oomlint does not model.
  bool isTrainer(const Node* map, const KeyPath& path) {
    if (!trainingJob_) return false;
    const MapEntry* type = map->findEntry("type");
    if (type == nullptr || !type->value->isScalar()) return true;  // the walk reports the missing/bad type
    const std::string& name = type->value->resolved()->text;
    if (isTrainerProcessType(k_.schema, name)) return true;
    const ValueSet* known = k_.schema.valueSet("process_type");
    if (known != nullptr && known->accepts(name)) {
      findings_.report(RuleId::OL208, type->value->range, path.key("type"),
                       "process type " + quote(name) + " is not a trainer; oomlint checks only trainer processes, so its "
                       "settings are not checked");
    } else if (const KeySpec* spec = k_.schema.section("process") ? k_.schema.section("process")->find("type") : nullptr) {
      const KeyPath typePath = path.key("type");
      checkScalar(type->value, *spec, typePath, KeyName{typePath, false, "type"});
    }
    return false;
  }

  // The unknown key at path_.
  void reportUnknown(const MapEntry& entry, const SectionSpec& spec) {
    const KeyPath& path = path_;
    const std::string& name = entry.key->resolved()->text;
    std::string message = "unknown key " + quote(name) + " in " + quote(spec.name) + ": AI Toolkit ignores it silently";
    if (auto near = closestMatch(name, spec.names())) {
      message += "; did you mean " + quote(*near) + "?";
      // Say what actually runs meanwhile: the intended key at its default.
      const KeySpec* intended = spec.find(*near);
      if (intended && intended->hasDefault && intended->defaultValue && intended->defaultValue->isScalar() &&
          !intended->defaultValue->isNull()) {
        message += " (as written, " + quote(*near) + " keeps its default, " + intended->defaultValue->resolved()->text + ")";
      }
    } else if (auto home = sectionHolding(name, spec.name)) {
      message += "; " + quote(name) + " is a setting of " + quote(*home) + ": move it there";
    }
    findings_.report(RuleId::OL201, entry.key->range, path, message);
  }

  std::optional<std::string> sectionHolding(std::string_view key, std::string_view except) const {
    for (auto name : kTrainerSections) {
      if (name == except) continue;
      const SectionSpec* s = k_.schema.section(name);
      if (s != nullptr && s->find(key) != nullptr) return std::string(name == "dataset" ? "datasets[]" : name);
    }
    return std::nullopt;
  }

  // The value at path_.
  void checkValue(const MapEntry& entry, const KeySpec& ks) {
    const KeyPath& path = path_;
    if (!ks.deprecated.empty()) {
      const bool fatal = ks.deprecated.find("raises") != std::string::npos;
      findings_.report(RuleId::OL206, entry.key->range, path, quote(entry.key->resolved()->text) + " is deprecated: " + ks.deprecated,
                       fatal ? std::optional(Severity::Error) : std::nullopt);
    }
    const Node* value = entry.value->resolved();
    const KeyName what{path};
    if (!checkType(entry.value, ks.types, ks, path, what)) return;
    if (value->kind == NodeKind::Mapping) {
      if (const SectionSpec* section = k_.schema.section(ks.section)) walkSection(value, *section, entry.key->range);
      return;
    }
    if (value->kind == NodeKind::Sequence) {
      checkList(entry, ks);
      return;
    }
    if (value->kind == NodeKind::Scalar) checkScalar(entry.value, ks, path, what);
  }

  // The list at path_.
  void checkList(const MapEntry& entry, const KeySpec& ks) {
    const KeyPath& path = path_;
    const auto& items = entry.value->resolved()->items;
    if (items.size() < ks.minItems) {
      findings_.report(RuleId::OL205, entry.value->range, path,
                       quote(entry.key->resolved()->text) + " needs at least " + std::to_string(ks.minItems) + " item" +
                           (ks.minItems == 1 ? "" : "s") + "; it is empty");
    }
    const SectionSpec* section = ks.itemSection.empty() ? nullptr : k_.schema.section(ks.itemSection);
    for (std::size_t i = 0; i < items.size(); ++i) {
      const Descend atItem(path_, i);
      const KeyPath& itemPath = path_;
      const KeyName what{itemPath, true};
      if (!checkType(items[i], section ? kMap : ks.itemTypes, ks, itemPath, what)) continue;
      const Node* item = items[i]->resolved();
      if (section != nullptr && item->kind == NodeKind::Mapping) {
        Range anchor = item->entries.empty() ? items[i]->range : item->entries.front().key->range;
        walkSection(item, *section, anchor);
      } else if (item->kind == NodeKind::Scalar) {
        checkScalar(items[i], ks, itemPath, what);
      }
    }
  }

  // Reports OL105 / OL202 and returns false when the value should not be checked further.
  bool checkType(const Node* written, unsigned types, const KeySpec& ks, const KeyPath& path, const KeyName& what) {
    const Node* value = written->resolved();
    if (value->kind == NodeKind::Scalar && value->type == ScalarType::String && value->text.find("${") != std::string::npos) {
      findings_.report(RuleId::OL105, written->range, path,
                       "the value comes from an environment variable, substituted before parsing (the job fails if it is "
                       "unset); oomlint cannot check it");
      return false;
    }
    const unsigned actual = typeBitOf(value);
    if (actual == kNull) {
      if (ks.acceptsNull() || (types & kNull)) return false;
      findings_.report(RuleId::OL202, written->range, path, what.text() + " expects " + describeTypes(types) + ", but the value is empty (null)");
      return false;
    }
    if (typeAccepts(types, value)) return true;
    std::string message = what.text() + " expects " + describeTypes(types) + ", got " + describeValue(value);
    std::optional<Fix> fix;
    if (actual == kString) {
      Node unquoted = *value;
      unquoted.quoted = false;
      resolveScalar(unquoted);
      const unsigned plainType = typeBitOf(&unquoted);
      if (value->quoted && (types & plainType) && plainType != kString) {
        message += plainType == kBool
                       ? "; the quotes make it a non-empty string, which Python treats as true whatever it says: remove them"
                       : "; the quotes make it a string: remove them";
        fix = Fix{path, jsonText(value), jsonText(&unquoted)};
      } else if (!value->quoted && (types & (kInt | kFloat)) && looksNumeric(value->text)) {
        message += "; AI Toolkit's YAML loader reads it as a string (YAML 1.1 needs a sign in an exponent after a "
                   "decimal point: write 1.0e+4 or 1e4)";
      }
    } else if (actual == kFloat && (types & kInt) && !(types & kFloat)) {
      message += "; use a whole number";
    }
    const bool severe = !(types & kString) || actual == kMap || actual == kList;
    findings_.report(RuleId::OL202, written->range, path, message, severe ? std::nullopt : std::optional(Severity::Warning), fix);
    return false;
  }

  static bool looksNumeric(const std::string& text) {
    if (text.empty()) return false;
    char* end = nullptr;
    std::strtod(text.c_str(), &end);
    return end != nullptr && *end == '\0';
  }

  void checkScalar(const Node* written, const KeySpec& ks, const KeyPath& path, const KeyName& what) {
    const Node* value = written->resolved();
    // A number or flag where a text key expects one of its names (`type: 5`): Python compares it with
    // the names and matches none. (The type check lets numbers stand for text: names, trigger words.)
    if (value->type != ScalarType::String && value->type != ScalarType::Null && !ks.valueSet.empty() &&
        !(typeBitOf(value) & ks.types)) {
      const ValueSet* set = k_.schema.valueSet(ks.valueSet);
      if (set != nullptr && !set->accepts(value->text)) {
        findings_.report(RuleId::OL203, written->range, path,
                         what.text() + " does not accept " + value->text + " (" + std::string(toString(value->type)) +
                             "); accepted: " + listOf(set->suggestions()));
      }
    }
    if (value->type == ScalarType::String && !ks.valueSet.empty()) {
      const ValueSet* set = k_.schema.valueSet(ks.valueSet);
      std::string candidate = value->text;
      if (ks.valueSet == "qtype") candidate = std::string(qtypeName(candidate));  // "uint4|ara/path"
      if (set != nullptr && !set->accepts(candidate)) {
        std::string message = what.text() + " does not accept \"" + candidate + "\"";
        std::optional<Fix> fix;
        if (auto near = closestMatch(candidate, set->suggestions())) {
          message += "; did you mean \"" + *near + "\"?";
          std::string replacement = *near + value->text.substr(candidate.size());
          fix = Fix{path, jsonText(value), jsonString(replacement)};
        } else {
          message += "; accepted: " + listOf(set->suggestions());
        }
        findings_.report(RuleId::OL203, written->range, path, message, std::nullopt, fix);
      }
    }
    if (value->type == ScalarType::Int || value->type == ScalarType::Float) {
      const double number = value->number();
      std::string bound;
      if (!std::isfinite(number)) bound = "a finite number";
      else if (ks.min && (number < *ks.min || (ks.exclusiveMin && number == *ks.min))) bound = (ks.exclusiveMin ? "above " : "at least ") + numberText(*ks.min);
      else if (ks.max && number > *ks.max) bound = "at most " + numberText(*ks.max);
      if (!bound.empty()) {
        std::string range;
        if (ks.min && ks.max) range = " (accepted: " + numberText(*ks.min) + " to " + numberText(*ks.max) + ")";
        findings_.report(RuleId::OL204, written->range, path, what.text() + " must be " + bound + ", got " + value->text + range);
      }
    }
  }

  static std::string numberText(double v) {
    if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<long long>(v));
    std::string s = fixedText(v, 6);  // std::to_string's "%f"
    while (!s.empty() && s.back() == '0') s.pop_back();
    return s;
  }

  static std::string listOf(const std::vector<std::string>& values) {
    std::string out;
    const std::size_t shown = std::min<std::size_t>(values.size(), 12);
    for (std::size_t i = 0; i < shown; ++i) out += (i ? ", " : "") + (values[i].empty() ? std::string("''") : values[i]);
    if (values.size() > shown) out += ", … (" + std::to_string(values.size() - shown) + " more)";
    return out;
  }

  const Knowledge& k_;
  Findings& findings_;
  std::set<std::pair<const Node*, const SectionSpec*>> visited_;
  KeyPath path_;  // where the walk is
  bool trainingJob_ = true;
};

}  // namespace

void checkSchema(const AitkJobCheckContext& c, Findings& findings) { SchemaWalker(c.knowledge, findings).walk(c.job.root); }

}  // namespace oomlint
