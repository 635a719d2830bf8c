// `oomlint schema`: the JSON Schema (draft 2020-12) of an AI Toolkit job, generated from knowledge().schema
// so that an editor flags what schema_check.cpp reports as an error, and accepts what it lets through:
//   - a key of a closed section that the data does not list: additionalProperties false (OL201);
//   - a value of the wrong type (OL202), outside its value set (OL203) or bounds (OL204), a missing
//     required key (OL205), a key AI Toolkit refuses (OL206 "raises"), an unknown model.arch (OL207);
//   - but any `${VAR}` string, which AI Toolkit substitutes before parsing (OL105), and whatever a
//     process that is not a trainer, or any process of a job that does not train, holds (OL208).
#include "systems/aitk/json_schema.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/document/node.h"
#include "base/knowledge/knowledge.h"
#include "base/text/ascii.h"

namespace oomlint {

namespace {

using Json = nlohmann::ordered_json;

constexpr std::string_view kSchemaId = "urn:oomlint:schema:ai-toolkit-job";
constexpr std::string_view kDraft = "https://json-schema.org/draft/2020-12/schema";

// What schema_check.cpp decides in code rather than in the data, mirrored here.
constexpr std::string_view kProcessSection = "process";              // walked only for trainers
constexpr std::string_view kTrainingJobs[] = {"extension", "train"};  // jobs whose processes are walked
constexpr std::string_view kPipeValueSet = "qtype";                  // "<qtype>|<ARA path>": checked before '|'
constexpr std::string_view kFatalDeprecation = "raises";             // such an OL206 is an error
constexpr std::string_view kArchSection = "model";                   // model.arch is checked against
constexpr std::string_view kArchKey = "arch";                        // architectures.yaml (OL207), not
constexpr std::string_view kArchValueSet = "arch";                   // a schema.yaml value set
constexpr std::string_view kEnvDef = "env_placeholder";
constexpr std::string_view kProcessEntryDef = "process_entry";

std::string sectionDefName(std::string_view section, bool trainingJob) {
  return "section." + std::string(section) + (trainingJob ? "" : ".non_training_job");
}
std::string valueSetDefName(std::string_view set) { return "values." + std::string(set); }
Json refTo(std::string_view def) { return {{"$ref", "#/$defs/" + std::string(def)}}; }

// `text` as an ECMA-262 (unicode mode) regex literal; with caseInsensitive, each letter as [xX]
// (JSON Schema patterns take no flags).
std::string regexLiteral(std::string_view text, bool caseInsensitive) {
  static constexpr std::string_view kSyntax = "^$\\.*+?()[]{}|/";
  std::string out;
  for (char c : text) {
    if (kSyntax.find(c) != std::string_view::npos) {
      out += '\\';
      out += c;
    } else if (caseInsensitive && isAsciiAlpha(c)) {
      out += '[';
      out += asciiLower(c);
      out += asciiUpper(c);
      out += ']';
    } else {
      out += c;
    }
  }
  return out;
}

std::string alternation(const std::vector<KnowledgeText>& texts, bool caseInsensitive) {
  std::string out = "(?:";
  for (std::size_t i = 0; i < texts.size(); ++i) out += (i ? "|" : "") + regexLiteral(texts[i], caseInsensitive);
  return out + ")";
}

// A data file's value (a default) as JSON.
Json nodeJson(const Node* node) {
  if (node == nullptr) return nullptr;
  const Node* v = node->resolved();
  switch (v->kind) {
    case NodeKind::Mapping: {
      Json out = Json::object();
      for (const auto& entry : v->allEntries()) out[entry.key->resolved()->text] = nodeJson(entry.value);
      return out;
    }
    case NodeKind::Sequence: {
      Json out = Json::array();
      for (const Node* item : v->items) out.push_back(nodeJson(item));
      return out;
    }
    case NodeKind::Scalar: break;
    case NodeKind::Null:
    case NodeKind::Alias: return nullptr;
  }
  switch (v->type) {
    case ScalarType::Bool: return v->boolValue;
    case ScalarType::Int: return v->intValue;
    case ScalarType::Float: return v->floatValue;
    case ScalarType::String: return v->text;
    case ScalarType::Null: break;
  }
  return nullptr;
}

class SchemaBuilder {
 public:
  explicit SchemaBuilder(const Knowledge& k) : k_(k) { archValues(); }

  Json build() {
    Json schema;
    schema["$schema"] = kDraft;
    schema["$id"] = kSchemaId;
    schema["title"] = "AI Toolkit job config";
    schema["description"] =
        "An Ostris AI Toolkit job config (YAML or JSON), as oomlint checks it; generated from oomlint's "
        "rules/ai-toolkit/schema.yaml by `oomlint schema`. Only trainer processes of training jobs are checked "
        "key by key.";
    schema["type"] = "object";
    // A job that does not train keeps its processes unchecked (OL208); no `job` counts as training.
    Json trainingKinds = Json::array();
    for (auto kind : kTrainingJobs) trainingKinds.push_back(kind);
    defs_[std::string(kEnvDef)] = {
        {"description", "a ${VAR} placeholder: AI Toolkit substitutes the environment before parsing, so its "
                        "final value cannot be checked"},
        {"type", "string"},
        {"pattern", "\\$\\{"}};
    Json training = sectionRef("root", true);  // first, so that its definitions come first
    schema["if"] = {{"required", Json::array({"job"})},
                    {"properties", {{"job", {{"not", {{"enum", trainingKinds}}}}}}}};
    schema["then"] = sectionRef("root", false);
    schema["else"] = std::move(training);
    for (const auto& name : sortedNames(k_.schema.valueSets())) valueSetDef(name);
    for (const auto& name : sortedNames(k_.schema.sections())) sectionRef(name, true);
    schema["$defs"] = std::move(defs_);
    return schema;
  }

 private:
  template <typename Map>
  static std::vector<std::string> sortedNames(const Map& map) {
    std::vector<std::string> names;
    for (const auto& [name, value] : map) names.push_back(name);
    std::sort(names.begin(), names.end());
    return names;
  }

  // The architectures OL207 accepts: a name or alias, optionally followed by ":variant"; "" = unset.
  void archValues() {
    arch_.name = KnowledgeText(kArchValueSet);
    arch_.values.emplace_back();
    for (const auto& name : k_.architectures.names()) {
      arch_.values.push_back(archText_.keep(name));
      arch_.prefixes.push_back(archText_.keep(name + ":"));
    }
  }

  const ValueSet* valueSet(std::string_view name) const {
    return name == kArchValueSet ? &arch_ : k_.schema.valueSet(name);
  }

  std::string valueSetDef(std::string_view name) {
    std::string def = valueSetDefName(name);
    if (defs_.contains(def)) return def;
    const ValueSet* set = valueSet(name);
    if (set == nullptr) return def;
    Json out = {{"title", name}, {"type", "string"}, {"enum", set->suggestions()}};
    // ValueSet::accepts also takes other cases and prefixes; qtype is checked before its '|'.
    std::vector<std::string> patterns;
    if (set->caseInsensitive) patterns.push_back(alternation(set->values, true) + "$");
    if (!set->prefixes.empty()) patterns.push_back(alternation(set->prefixes, set->caseInsensitive));
    if (name == kPipeValueSet) patterns.push_back(alternation(set->values, set->caseInsensitive) + "\\|");
    if (!patterns.empty()) {
      Json anyOf = Json::array();
      anyOf.push_back(Json{{"enum", set->suggestions()}});
      for (const auto& p : patterns) anyOf.push_back({{"pattern", "^" + p}});
      out.erase("enum");
      out["anyOf"] = std::move(anyOf);
    }
    defs_[def] = std::move(out);
    return def;
  }

  // Whether `section` leads to process entries, whose checking depends on the job kind.
  bool reachesProcess(const std::string& section, std::set<std::string>& seen) const {
    if (section == kProcessSection) return true;
    if (!seen.insert(section).second) return false;
    const SectionSpec* spec = k_.schema.section(section);
    if (spec == nullptr) return false;
    bool reaches = false;
    spec->forEachKey([&](const SchemaKey& key) {
      for (const auto& child : {key.spec().section, key.spec().itemSection}) {
        reaches = reaches || (!child.empty() && reachesProcess(child, seen));
      }
    });
    return reaches;
  }

  // A mapping described by `section`, its definition written on first use.
  Json sectionRef(const std::string& section, bool trainingJob) {
    if (section == kProcessSection) {
      if (!trainingJob) return {{"type", "object"}};
      processEntryDef();
      return refTo(kProcessEntryDef);
    }
    std::set<std::string> seen;
    if (!trainingJob && !reachesProcess(section, seen)) trainingJob = true;  // one definition serves both
    const std::string def = sectionDefName(section, trainingJob);
    if (!defs_.contains(def)) {
      defs_[def] = nullptr;  // reserves the slot: definitions appear in the order they are first used
      defs_[def] = sectionDef(section, trainingJob);
    }
    return refTo(def);
  }

  // A trainer process is checked key by key; another known process type is not (OL208).
  void processEntryDef() {
    const std::string def(kProcessEntryDef);
    if (defs_.contains(def)) return;
    defs_[def] = nullptr;
    const ValueSet* all = k_.schema.valueSet("process_type");
    const ValueSet* trainers = k_.schema.valueSet("trainer_process_type");
    Json others = Json::array();
    for (const auto& type : all ? all->suggestions() : std::vector<std::string>{}) {
      if (trainers == nullptr || !trainers->accepts(type)) others.push_back(type);
    }
    const std::string trainerDef = sectionDefName(kProcessSection, true);
    defs_[def] = {{"description", "one process of a training job: trainer types (" +
                                      (trainers ? joined(trainers->values) : std::string()) +
                                      ") are checked key by key; other process types are not"},
                  {"type", "object"},
                  {"if", {{"required", Json::array({"type"})}, {"properties", {{"type", {{"enum", others}}}}}}},
                  {"else", refTo(trainerDef)}};
    if (!defs_.contains(trainerDef)) {
      defs_[trainerDef] = nullptr;
      defs_[trainerDef] = sectionDef(std::string(kProcessSection), true);
    }
  }

  static std::string joined(const std::vector<KnowledgeText>& values) {
    std::string out;
    for (const auto& v : values) out += (out.empty() ? "" : ", ") + v;
    return out;
  }

  Json sectionDef(const std::string& name, bool trainingJob) {
    const SectionSpec* spec = k_.schema.section(name);
    Json out = {{"title", name}, {"type", "object"}};
    if (spec == nullptr) return out;
    if (!spec->source.empty()) out["description"] = "AI Toolkit: " + spec->source;
    Json properties = Json::object();
    Json required = Json::array();
    spec->forEachKey([&](const SchemaKey& key) {
      // model.arch's strings belong to the architectures (OL207), which no schema.yaml value set lists.
      KeySpec ks = key.spec();
      if (name == kArchSection && key.name == kArchKey && ks.valueSet.empty()) ks.valueSet = KnowledgeText(kArchValueSet);
      properties[key.name] = keySchema(name, ks, trainingJob);
      if (key.required) required.push_back(key.name);
    });
    // schema_check.cpp requires a trainer's `model` in code: AI Toolkit needs model.name_or_path.
    if (name == kProcessSection && spec->indexOf("model") && !spec->isRequired("model")) required.push_back("model");
    if (!properties.empty()) out["properties"] = std::move(properties);
    if (!required.empty()) out["required"] = std::move(required);
    if (!spec->open) out["additionalProperties"] = false;
    return out;
  }

  Json keySchema(const std::string& section, const KeySpec& ks, bool trainingJob) {
    Json out = Json::object();
    std::string description = ks.doc;
    if (ks.memory) description += description.empty() ? "Affects VRAM." : " (affects VRAM)";
    if (!ks.deprecated.empty()) description += (description.empty() ? "" : ". ") + std::string("Deprecated: ") + ks.deprecated;
    if (!description.empty()) out["description"] = description;
    if (!ks.deprecated.empty()) out["deprecated"] = true;
    if (ks.hasDefault) out["default"] = nodeJson(ks.defaultValue);
    if (!ks.deprecated.empty() && ks.deprecated.find(kFatalDeprecation) != std::string::npos) {
      out["not"] = Json::object();  // AI Toolkit refuses the key whatever its value
      return out;
    }
    Json value = withPlaceholders(valueSchema(section, ks, false, trainingJob), acceptsAnyString(ks, false));
    for (auto& [keyword, v] : value.items()) out[keyword] = std::move(v);
    return out;
  }

  static bool acceptsAnyString(const KeySpec& ks, bool item) {
    const unsigned types = item ? (ks.itemSection.empty() ? ks.itemTypes : kMap) : ks.types;
    return (types & kString) && ks.valueSet.empty();
  }

  // A `${VAR}` string passes any key (OL105); other values must match `value`.
  static Json withPlaceholders(Json value, bool anyString) {
    if (anyString || value.empty()) return value;
    return {{"if", refTo(kEnvDef)}, {"else", std::move(value)}};
  }

  // The values a key (or, with `item`, each item of its list) accepts, as schema_check.cpp's
  // checkType/checkScalar judge them: an int passes for a float or a flag, null where the key allows it.
  Json valueSchema(const std::string& section, const KeySpec& ks, bool item, bool trainingJob) {
    const unsigned types = item ? (ks.itemSection.empty() ? ks.itemTypes : kMap) : ks.types;
    const std::string& mapSection = item ? ks.itemSection : ks.section;
    const std::string set(ks.valueSet);
    Json shared = Json::object();  // keywords of the plain (non-$ref) alternative
    std::vector<std::string> plainTypes;
    Json refs = Json::array();
    if (types & kBool) plainTypes.emplace_back("boolean");
    if (types & kFloat) plainTypes.emplace_back("number");
    else if (types & (kInt | kBool)) plainTypes.emplace_back("integer");
    if (types & (kInt | kFloat)) bounds(ks, shared);
    if (types & kString) {
      if (set.empty()) plainTypes.emplace_back("string");
      else refs.push_back(refTo(valueSetDef(set)));
    }
    if (types & kMap) {
      if (mapSection.empty()) plainTypes.emplace_back("object");
      else refs.push_back(sectionRef(mapSection, trainingJob));
    }
    if (types & kList) {
      plainTypes.emplace_back("array");
      if (!item) {
        Json items = withPlaceholders(valueSchema(section, ks, true, trainingJob), acceptsAnyString(ks, true));
        if (!items.empty()) shared["items"] = std::move(items);
        if (ks.minItems > 0) shared["minItems"] = ks.minItems;
      }
    }
    if ((types & kNull) || ks.acceptsNull()) plainTypes.emplace_back("null");
    if (types == kAnyType && refs.empty() && shared.empty()) return Json::object();  // no `type` in the data
    Json plain = Json::object();
    if (!plainTypes.empty()) plain["type"] = plainTypes.size() == 1 ? Json(plainTypes.front()) : Json(plainTypes);
    for (auto& [keyword, v] : shared.items()) plain[keyword] = std::move(v);
    if (plainTypes.empty()) return refs.size() == 1 ? refs.front() : Json{{"anyOf", refs}};
    if (refs.empty()) return plain;
    refs.push_back(std::move(plain));
    return {{"anyOf", std::move(refs)}};
  }

  static void bounds(const KeySpec& ks, Json& out) {
    if (ks.min) out[ks.exclusiveMin ? "exclusiveMinimum" : "minimum"] = number(*ks.min);
    if (ks.max) out["maximum"] = number(*ks.max);
  }

  // Whole bounds print as integers (1, not 1.0).
  static Json number(double v) {
    if (v == std::floor(v) && std::fabs(v) < 1e15) return static_cast<std::int64_t>(v);
    return v;
  }

  const Knowledge& k_;
  KnowledgeTextStore archText_;  // the architectures' value set is made here, not in the tables
  ValueSet arch_;
  Json defs_ = Json::object();
};

}  // namespace

std::string jobJsonSchema() {
  Json schema = SchemaBuilder(knowledge()).build();
  return schema.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace oomlint
