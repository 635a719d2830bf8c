// Schemas for the rules/ data files (rules/schema/*.schema.yaml), checked by the rules compiler before
// it emits JSON, so an unknown or misspelt key, a missing figure or a wrong type fails the build at
// file:line:column instead of leaving the loader to read nothing.
//
// A schema file has up to three top-level keys:
//   types: NAME: SPEC, ...   (optional) named specs, usable wherever a type name is
//   enums: NAME: [a, b, ...] (optional) named sets of strings, usable wherever a type name is: the value
//                            is one of them (a misspelt one names the closest)
//   root:  SPEC              the whole file
// A SPEC is one of:
//   a type name   number (int or float), integer, string, bool, null, any, list (any list), map (any
//                 mapping) or a name from `types:` or `enums:`; alternatives are joined with `|` (`integer|null`)
//   [SPEC]        a list whose every item is SPEC
//   {key: SPEC}   a mapping with exactly these keys: `key?` marks an optional key, the others are
//                 required, and `"*": SPEC` admits any other key (a free-form map keyed by names)
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/document/node.h"

namespace oomlint::rules {

struct SchemaProblem {
  Position at;
  std::string message;
};

class DataSchema {
 public:
  // Reads a schema file; its own defects (bad type name, unknown top-level key) go to `problems`.
  static std::unique_ptr<DataSchema> read(std::string text, std::vector<SchemaProblem>& problems);

  // Checks a data file's root node; `name` names the top level in messages (the file's stem).
  std::vector<SchemaProblem> validate(const Node* root, std::string_view name) const;

  // The ids of an enum (empty when the schema has none of that name), for tests that hold them
  // against the C++ vocabulary that handles them.
  std::vector<std::string> enumIds(std::string_view name) const;

 private:
  std::unique_ptr<Document> doc_;
  const Node* types_ = nullptr;
  const Node* enums_ = nullptr;
  const Node* root_ = nullptr;
};

}  // namespace oomlint::rules
