#include "rules_schema.h"

#include <algorithm>
#include <utility>

#include "base/document/reader.h"
#include "base/text/suggest.h"

namespace oomlint::rules {

namespace {

constexpr std::string_view kBuiltins[] = {"number", "integer", "string", "bool", "null", "any", "list", "map"};

bool isBuiltin(std::string_view name) {
  for (auto b : kBuiltins) {
    if (b == name) return true;
  }
  return false;
}

std::vector<std::string_view> alternatives(std::string_view text) {
  std::vector<std::string_view> out;
  while (true) {
    auto bar = text.find('|');
    auto part = text.substr(0, bar);
    while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
    while (!part.empty() && part.back() == ' ') part.remove_suffix(1);
    out.push_back(part);
    if (bar == std::string_view::npos) return out;
    text.remove_prefix(bar + 1);
  }
}

// What a value is, in the words the messages use.
std::string describeValue(const Node* value) {
  const Node* v = value->resolved();
  if (v->isMapping()) return "a mapping";
  if (v->isSequence()) return "a list";
  if (v->isNull()) return "null";
  switch (v->type) {
    case ScalarType::Bool: return "a boolean";
    case ScalarType::Int: return "an integer";
    case ScalarType::Float: return "a number";
    case ScalarType::String: return "a string";
    case ScalarType::Null: break;
  }
  return "null";
}

// The key name of a shape entry without its `?`, and whether it is optional.
std::pair<std::string, bool> keyName(const Node* key) {
  std::string name = key->resolved()->text;
  const bool optional = name.size() > 1 && name.back() == '?';
  if (optional) name.pop_back();
  return {name, optional};
}

// The values an enum allows, as text.
std::vector<std::string> enumValues(const Node* values) {
  std::vector<std::string> out;
  for (const Node* item : values->resolved()->items) out.push_back(item->resolved()->text);
  return out;
}

class Checker {
 public:
  Checker(const Node* types, const Node* enums, std::vector<SchemaProblem>& out) : types_(types), enums_(enums), out_(&out) {}

  void check(const Node* spec, const Node* value, const std::string& path, int depth) {
    spec = spec->resolved();
    value = value->resolved();
    if (depth > 64) return;
    if (spec->isSequence()) {
      if (!value->isSequence()) return typeError(spec, value, path);
      std::size_t i = 0;
      for (const Node* item : value->items) check(spec->items.at(0), item, path + "[" + std::to_string(i++) + "]", depth + 1);
      return;
    }
    if (spec->isMapping()) {
      if (!value->isMapping()) return typeError(spec, value, path);
      return checkShape(spec, value, path, depth);
    }
    auto alts = alternatives(spec->text);
    if (alts.size() == 1) return checkNamed(spec, alts[0], value, path, depth);
    std::vector<std::string_view> fitting;
    for (auto alt : alts) {
      if (kindFits(alt, value, depth)) fitting.push_back(alt);
    }
    if (fitting.empty()) return typeError(spec, value, path);
    std::vector<SchemaProblem> first;
    for (auto alt : fitting) {
      std::vector<SchemaProblem> tried;
      auto* saved = std::exchange(out_, &tried);
      checkNamed(spec, alt, value, path, depth);
      out_ = saved;
      if (tried.empty()) return;
      if (first.empty()) first = std::move(tried);
    }
    out_->insert(out_->end(), first.begin(), first.end());
  }

  std::string describeSpec(const Node* spec, int depth = 0) const {
    spec = spec->resolved();
    if (spec->isSequence()) return "a list";
    if (spec->isMapping()) return "a mapping";
    std::string out;
    for (auto alt : alternatives(spec->text)) {
      std::string one;
      if (alt == "number") one = "a number";
      else if (alt == "integer") one = "an integer";
      else if (alt == "string") one = "a string";
      else if (alt == "bool") one = "a boolean";
      else if (alt == "null") one = "null";
      else if (alt == "any") one = "any value";
      else if (alt == "list") one = "a list";
      else if (alt == "map") one = "a mapping";
      else if (enumNamed(alt)) one = "a " + std::string(alt);
      else if (const Node* named = types_ ? types_->find(alt) : nullptr; named && depth < 8) one = describeSpec(named, depth + 1);
      else one = std::string(alt);
      if (out.find(one) != std::string::npos) continue;
      out += out.empty() ? one : " or " + one;
    }
    return out;
  }

 private:
  void error(const Node* at, std::string message) { out_->push_back({at->range.start, std::move(message)}); }

  void typeError(const Node* spec, const Node* value, const std::string& path) {
    error(value, "`" + path + "` must be " + describeSpec(spec) + ", not " + describeValue(value));
  }

  // Whether a value's kind (mapping, list, scalar type) could match one alternative, before its content.
  bool kindFits(std::string_view alt, const Node* value, int depth) const {
    if (alt == "any") return true;
    if (alt == "number") return value->isNumber();
    if (alt == "integer") return value->isScalar() && value->type == ScalarType::Int;
    if (alt == "string") return value->isScalar() && value->type == ScalarType::String;
    if (alt == "bool") return value->isScalar() && value->type == ScalarType::Bool;
    if (alt == "null") return value->isNull();
    if (alt == "list") return value->isSequence();
    if (alt == "map") return value->isMapping();
    if (enumNamed(alt)) return value->isScalar() && value->type == ScalarType::String;
    const Node* named = types_ ? types_->find(alt) : nullptr;
    if (named == nullptr || depth > 64) return false;
    named = named->resolved();
    if (named->isSequence()) return value->isSequence();
    if (named->isMapping()) return value->isMapping();
    for (auto inner : alternatives(named->text)) {
      if (kindFits(inner, value, depth + 1)) return true;
    }
    return false;
  }

  void checkNamed(const Node* spec, std::string_view name, const Node* value, const std::string& path, int depth) {
    if (isBuiltin(name)) {
      if (!kindFits(name, value, depth)) typeError(spec, value, path);
      return;
    }
    if (const Node* values = enumNamed(name)) return checkEnum(spec, name, values, value, path);
    if (const Node* named = types_ ? types_->find(name) : nullptr) return check(named, value, path, depth + 1);
    error(value, "`" + path + "`: the schema names no type `" + std::string(name) + "`");
  }

  const Node* enumNamed(std::string_view name) const { return enums_ ? enums_->find(name) : nullptr; }

  // A string from the enum's list; a misspelt one names the closest value.
  void checkEnum(const Node* spec, std::string_view name, const Node* values, const Node* value, const std::string& path) {
    if (!value->isScalar() || value->type != ScalarType::String) return typeError(spec, value, path);
    const std::vector<std::string> allowed = enumValues(values);
    if (std::find(allowed.begin(), allowed.end(), value->text) != allowed.end()) return;
    std::string message = "`" + path + "`: `" + value->text + "` is not a " + std::string(name) + " (one of ";
    for (std::size_t i = 0; i < allowed.size(); ++i) message += (i ? ", " : "") + allowed[i];
    message += ")";
    if (auto near = closestMatch(value->text, allowed)) message += "; did you mean `" + *near + "`?";
    error(value, message);
  }

  void checkShape(const Node* shape, const Node* value, const std::string& path, int depth) {
    struct Allowed {
      std::string name;
      bool optional;
      const Node* spec;
      bool seen = false;
    };
    std::vector<Allowed> allowed;
    std::vector<std::string> names;
    const Node* wildcard = nullptr;
    for (const auto& entry : shape->allEntries()) {
      auto [name, optional] = keyName(entry.key);
      if (name == "*") {
        wildcard = entry.value;
      } else {
        names.push_back(name);
        allowed.push_back({std::move(name), optional, entry.value});
      }
    }
    for (const auto& entry : value->allEntries()) {
      const std::string& key = entry.key->resolved()->text;
      const Node* spec = wildcard;
      for (auto& a : allowed) {
        if (a.name == key) {
          a.seen = true;
          spec = a.spec;
          break;
        }
      }
      if (spec == nullptr) {
        std::string message = "unknown key `" + key + "` in `" + path + "`";
        if (auto near = closestMatch(key, names)) message += " (did you mean `" + *near + "`?)";
        error(entry.key, message);
        continue;
      }
      check(spec, entry.value, path + "." + key, depth + 1);
    }
    for (const auto& a : allowed) {
      if (!a.optional && !a.seen) error(value, "missing key `" + a.name + "` in `" + path + "`");
    }
  }

  const Node* types_;
  const Node* enums_;
  std::vector<SchemaProblem>* out_;
};

// The schema file's own defects: every type name must exist, a list spec has one item.
void checkSpec(const Node* spec, const Node* types, const Node* enums, std::vector<SchemaProblem>& problems, int depth) {
  spec = spec->resolved();
  if (depth > 64) return;
  if (spec->isSequence()) {
    if (spec->items.size() != 1) problems.push_back({spec->range.start, "a list spec has exactly one item, the items' spec"});
    for (const Node* item : spec->items) checkSpec(item, types, enums, problems, depth + 1);
  } else if (spec->isMapping()) {
    for (const auto& entry : spec->allEntries()) checkSpec(entry.value, types, enums, problems, depth + 1);
  } else if (spec->isScalar() && spec->type == ScalarType::String) {
    for (auto alt : alternatives(spec->text)) {
      if (isBuiltin(alt) || (types && types->find(alt)) || (enums && enums->find(alt))) continue;
      std::vector<std::string> names(std::begin(kBuiltins), std::end(kBuiltins));
      for (const Node* named : {types, enums}) {
        if (named == nullptr) continue;
        for (const auto& entry : named->allEntries()) names.push_back(entry.key->resolved()->text);
      }
      std::string message = "unknown type `" + std::string(alt) + "`";
      if (auto near = closestMatch(alt, names)) message += " (did you mean `" + *near + "`?)";
      problems.push_back({spec->range.start, message});
    }
  } else {
    problems.push_back({spec->range.start, "a spec is a type name, a one-item list or a mapping"});
  }
}

// An enum is a list of distinct strings, and its name is not also a type's.
void checkEnums(const Node* enums, const Node* types, std::vector<SchemaProblem>& problems) {
  for (const auto& entry : enums->allEntries()) {
    const std::string& name = entry.key->resolved()->text;
    if (isBuiltin(name) || (types && types->find(name))) {
      problems.push_back({entry.key->range.start, "enum `" + name + "` has the name of a type"});
    }
    const Node* values = entry.value->resolved();
    if (!values->isSequence() || values->items.empty()) {
      problems.push_back({entry.value->range.start, "enum `" + name + "` is a list of its values"});
      continue;
    }
    std::vector<std::string> seen;
    for (const Node* item : values->items) {
      const Node* v = item->resolved();
      if (!v->isScalar() || v->type != ScalarType::String) {
        problems.push_back({item->range.start, "enum `" + name + "`: a value is a string"});
      } else if (std::find(seen.begin(), seen.end(), v->text) != seen.end()) {
        problems.push_back({item->range.start, "enum `" + name + "`: `" + v->text + "` twice"});
      } else {
        seen.push_back(v->text);
      }
    }
  }
}

}  // namespace

std::vector<std::string> DataSchema::enumIds(std::string_view name) const {
  std::vector<std::string> ids;
  const Node* list = enums_ ? enums_->find(name) : nullptr;
  if (list == nullptr || !list->isSequence()) return ids;
  for (const Node* item : list->resolved()->items) {
    if (item->isScalar()) ids.push_back(item->resolved()->text);
  }
  return ids;
}

std::unique_ptr<DataSchema> DataSchema::read(std::string text, std::vector<SchemaProblem>& problems) {
  auto schema = std::make_unique<DataSchema>();
  schema->doc_ = readDocument(std::move(text));
  for (const auto& p : schema->doc_->problems()) problems.push_back({p.range.start, p.message});
  const Node* top = schema->doc_->root();
  if (top == nullptr || !top->isMapping()) {
    problems.push_back({{}, "a schema is a mapping with `root:` (and optional `types:` and `enums:`)"});
    return schema;
  }
  for (const auto& entry : top->allEntries()) {
    const std::string& key = entry.key->resolved()->text;
    if (key == "root") schema->root_ = entry.value;
    else if (key == "types" && entry.value->isMapping()) schema->types_ = entry.value->resolved();
    else if (key == "enums" && entry.value->isMapping()) schema->enums_ = entry.value->resolved();
    else problems.push_back({entry.key->range.start, "unknown schema key `" + key + "` (a schema has `types:`, `enums:` and `root:`)"});
  }
  if (schema->root_ == nullptr) problems.push_back({top->range.start, "missing key `root`"});
  if (schema->enums_) checkEnums(schema->enums_, schema->types_, problems);
  if (schema->types_) {
    for (const auto& entry : schema->types_->allEntries()) checkSpec(entry.value, schema->types_, schema->enums_, problems, 0);
  }
  if (schema->root_) checkSpec(schema->root_, schema->types_, schema->enums_, problems, 0);
  return schema;
}

std::vector<SchemaProblem> DataSchema::validate(const Node* root, std::string_view name) const {
  std::vector<SchemaProblem> problems;
  if (root_ == nullptr || root == nullptr) return problems;
  Checker checker(types_, enums_, problems);
  checker.check(root_, root, std::string(name), 0);
  return problems;
}

}  // namespace oomlint::rules
