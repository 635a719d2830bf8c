// The AI Toolkit job schema (rules/ai-toolkit/schema.yaml): sections, keys, types, defaults,
// value sets and bounds, as AI Toolkit's config classes read them.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/knowledge/knowledge_text.h"
#include "base/knowledge/lazy_part.h"

namespace oomlint {

struct Node;

// Value types as a bit set, so a key can accept a union ("int or list").
enum TypeBits : unsigned {
  kNull = 1u << 0,
  kBool = 1u << 1,
  kInt = 1u << 2,
  kFloat = 1u << 3,
  kString = 1u << 4,
  kMap = 1u << 5,
  kList = 1u << 6,
  kAnyType = 0x7Fu,
};

std::string describeTypes(unsigned types);  // "an integer or a list"

// The type bit of a loaded value (aliases resolved).
unsigned typeBitOf(const Node* value);
// Whether AI Toolkit's Python would take `value` for a key of `types`: an int also works as a float
// or as a flag.
bool typeAccepts(unsigned types, const Node* value);

// A key's spec, read on its first lookup; its name and whether it is required are its SchemaKey's.
struct KeySpec {
  unsigned types = kAnyType;
  KnowledgeText section;      // map values: the section describing its keys
  unsigned itemTypes = kAnyType;
  KnowledgeText itemSection;  // list values: the section of each item
  const Node* defaultValue = nullptr;  // null when AI Toolkit has no default worth stating
  bool hasDefault = false;
  bool nullable = false;
  KnowledgeText valueSet;
  std::optional<double> min;
  std::optional<double> max;
  bool exclusiveMin = false;
  KnowledgeText deprecated;
  bool memory = false;
  KnowledgeText doc;
  std::size_t minItems = 0;

  bool acceptsNull() const;
};

// Each struct's fields, for the rules compiler's tables (knowledge_tape.h): a field left out of
// its list is not compiled in, and reads as its default at run time.
template <class V> void fields(V& v, KeySpec& x) { v(x.types, x.section, x.itemTypes, x.itemSection, x.defaultValue, x.hasDefault, x.nullable, x.valueSet, x.min, x.max, x.exclusiveMin, x.deprecated, x.memory, x.doc, x.minItems); }

// A section's key as a walk over the section sees it: its name, whether AI Toolkit requires it, and its spec, read
// from the tables on first use.
struct SchemaKey {
  KnowledgeText name;
  bool required = false;
  const LazyParts<KeySpec>* specs = nullptr;
  std::size_t index = 0;

  const KeySpec& spec() const { return (*specs)[index]; }
  bool load() const { return specs->load(index); }  // whether its spec reads back exactly from the tables
};

// A section of the schema: its keys' names and required flags as two texts read with it, their specs each read on
// first lookup (a config looks up a fifth of the keys of the sections it writes).
struct SectionSpec {
  KnowledgeText name;
  KnowledgeText source;
  bool open = false;
  KnowledgeTexts keyNames;     // in the schema's order
  KnowledgeText required;      // a '1' or '0' per key, in that order
  LazyParts<KeySpec> specs;    // in that order

  std::optional<std::size_t> indexOf(std::string_view key) const;
  const KeySpec* find(std::string_view key) const;  // its spec, read on this first lookup
  bool isRequired(std::string_view key) const;
  std::vector<std::string> names() const { return {keyNames.begin(), keyNames.end()}; }
  // Each key in order: f(SchemaKey). A spec is read only if f asks for it.
  template <class F>
  void forEachKey(F f) const {
    std::size_t i = 0;
    for (const KnowledgeText name : keyNames) {
      f(SchemaKey{name, requiredAt(i), &specs, i});
      ++i;
    }
  }
  // The rules compiler's loader: a key in its place (its name and flag kept in `store`).
  void addKey(KnowledgeText key, bool isRequired, KeySpec spec, KnowledgeTextStore& store) {
    std::vector<KnowledgeText> all(keyNames.begin(), keyNames.end());
    all.push_back(key);
    keyNames = KnowledgeTexts(all, store);
    required = store.keep(std::string(required) + (isRequired ? '1' : '0'));
    specs.add() = std::move(spec);
  }
  bool requiredAt(std::size_t i) const { return i < required.size() && required[i] == '1'; }
};

template <class V> void fields(V& v, SectionSpec& x) { v(x.name, x.source, x.open, x.keyNames, x.required, x.specs); }

struct ValueSet {
  KnowledgeText name;
  std::vector<KnowledgeText> values;
  std::vector<KnowledgeText> prefixes;
  bool caseInsensitive = false;

  bool accepts(std::string_view value) const;
  std::vector<std::string> suggestions() const { return {values.begin(), values.end()}; }
};

template <class V> void fields(V& v, ValueSet& x) { v(x.name, x.values, x.prefixes, x.caseInsensitive); }

class Schema {
 public:
  template <class V> friend void fields(V& v, Schema& x);  // knowledge_tape.h
  const SectionSpec* section(std::string_view name) const;
  const ValueSet* valueSet(std::string_view name) const;
  // Each section is read from the tables when first looked up (lazy_part.h): a job reads the dozen it writes.
  const std::unordered_map<std::string, LazyPart<SectionSpec>>& sections() const { return sections_; }
  const std::unordered_map<std::string, LazyPart<ValueSet>>& valueSets() const { return valueSets_; }

  // Adds it, or replaces the one of that name in place (the tables keep their order).
  std::unordered_map<std::string, LazyPart<SectionSpec>>& sectionsToFill() { return sections_; }  // the rules compiler
  void addSection(SectionSpec section) {
    LazyPart<SectionSpec>& slot = sections_[section.name];
    slot.value() = std::move(section);
  }
  void addValueSet(ValueSet set) {
    LazyPart<ValueSet>& slot = valueSets_[set.name];
    slot.value() = std::move(set);
  }

 private:
  std::unordered_map<std::string, LazyPart<SectionSpec>> sections_;
  std::unordered_map<std::string, LazyPart<ValueSet>> valueSets_;  // read on first lookup too
};

template <class V> void fields(V& v, Schema& x) { v(x.sections_, x.valueSets_); }

}  // namespace oomlint
