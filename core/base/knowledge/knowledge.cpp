// The knowledge's lookups. The knowledge itself is compiled from rules/ at build time
// (rules/compiler, knowledge_tape.h).
#include "base/knowledge/knowledge.h"

#include <algorithm>

#include "base/document/node.h"
#include "base/text/ascii.h"

namespace oomlint {

std::string_view toString(Severity severity) {
  switch (severity) {
    case Severity::Info: return "info";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
  }
  return "error";
}

std::optional<Severity> parseSeverity(std::string_view text) {
  if (text == "info") return Severity::Info;
  if (text == "warning") return Severity::Warning;
  if (text == "error") return Severity::Error;
  return std::nullopt;
}

const RuleInfo* Catalog::find(std::string_view codeOrName) const {
  for (const auto& rule : rules_) {
    if (equalsIgnoringCase(rule.code, codeOrName) || rule.name == codeOrName) return &rule;
  }
  return nullptr;
}

bool KeySpec::acceptsNull() const {
  return nullable || (types & kNull) || (hasDefault && defaultValue && defaultValue->isNull());
}

std::optional<std::size_t> SectionSpec::indexOf(std::string_view key) const { return keyNames.indexOf(key); }

const KeySpec* SectionSpec::find(std::string_view key) const {
  const auto i = indexOf(key);
  return i ? &specs[*i] : nullptr;
}

bool SectionSpec::isRequired(std::string_view key) const {
  const auto i = indexOf(key);
  return i && requiredAt(*i);
}

bool ValueSet::accepts(std::string_view value) const {
  auto same = [&](std::string_view a, std::string_view b) { return caseInsensitive ? equalsIgnoringCase(a, b) : a == b; };
  for (const auto& v : values) {
    if (same(v, value)) return true;
  }
  for (const auto& p : prefixes) {
    if (value.size() >= p.size() && same(p, value.substr(0, p.size()))) return true;
  }
  return false;
}

const SectionSpec* Schema::section(std::string_view name) const {
  auto it = sections_.find(std::string(name));
  return it == sections_.end() ? nullptr : &*it->second;
}

const ValueSet* Schema::valueSet(std::string_view name) const {
  auto it = valueSets_.find(std::string(name));
  return it == valueSets_.end() ? nullptr : &*it->second;
}

std::string describeTypes(unsigned types) {
  static const std::pair<unsigned, const char*> names[] = {
      {kBool, "a boolean"}, {kInt, "an integer"}, {kFloat, "a number"}, {kString, "a string"},
      {kMap, "a mapping"},  {kList, "a list"},    {kNull, "null"}};
  if ((types & kAnyType) == kAnyType) return "any value";
  std::vector<std::string> parts;
  for (const auto& [bit, name] : names) {
    if (bit == kInt && (types & kFloat)) continue;  // "a number" covers both
    if (types & bit) parts.emplace_back(name);
  }
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += i + 1 == parts.size() ? " or " : ", ";
    out += parts[i];
  }
  return out;
}

unsigned typeBitOf(const Node* value) {
  const Node* v = value->resolved();
  switch (v->kind) {
    case NodeKind::Mapping: return kMap;
    case NodeKind::Sequence: return kList;
    case NodeKind::Null:
    case NodeKind::Alias: return kNull;
    case NodeKind::Scalar: break;
  }
  switch (v->type) {
    case ScalarType::Null: return kNull;
    case ScalarType::Bool: return kBool;
    case ScalarType::Int: return kInt;
    case ScalarType::Float: return kFloat;
    case ScalarType::String: return kString;
  }
  return kNull;
}

bool typeAccepts(unsigned types, const Node* value) {
  const unsigned actual = typeBitOf(value);
  return (types & actual) != 0 || (actual == kInt && (types & (kFloat | kBool)) != 0);
}

bool Architecture::lowVramDoes(std::string_view kind) const {
  return std::find(lowVramKinds.begin(), lowVramKinds.end(), kind) != lowVramKinds.end();
}

const ArchVariant* Architecture::variantFor(std::string_view model) const {
  const std::string lower = lowercase(model);
  for (const auto& v : variants) {
    for (const auto& m : v.match) {
      if (!m.empty() && lower.find(m) != std::string::npos) return &v;
    }
  }
  return nullptr;
}

double Architecture::textEncoderParams() const {
  double total = 0;
  for (const auto& te : textEncoders) total += te.params;
  return total;
}

namespace {

// Lower-case letters and digits only, less the vendor words in front, into `out`: its length.
std::size_t normalizeInto(std::string_view name, char* out, std::size_t capacity) {
  std::size_t n = 0;
  for (char c : name) {
    if (isAsciiAlnum(c) && n < capacity) out[n++] = asciiLower(c);
  }
  std::size_t from = 0;
  for (std::string_view vendor : {"nvidia", "geforce", "amd", "radeon", "intel", "apple"}) {
    const std::string_view rest(out + from, n - from);
    if (rest.starts_with(vendor) && rest.size() > vendor.size()) from += vendor.size();
  }
  std::copy(out + from, out + n, out);
  return n - from;
}

}  // namespace

std::string normalizeGpuName(std::string_view name) {
  std::string out(name.size(), '\0');
  out.resize(normalizeInto(name, out.data(), out.size()));
  return out;
}

// Every name and alias is compared normalised, in buffers on the stack: a lookup allocates nothing.
const Gpu* GpuCatalog::find(std::string_view name) const {
  constexpr std::size_t kLongest = 64;  // catalog names are far shorter; a longer one matches on its first 64
  char wanted[kLongest];
  char candidate[kLongest];
  const std::string_view key(wanted, normalizeInto(name, wanted, kLongest));
  if (key.empty()) return nullptr;
  const auto same = [&](std::string_view other) {
    // Most names end otherwise: the last letter or digit, which normalising keeps (lower-cased; a name cut at kLongest
    // does not end on it), rules them out first.
    const auto last = std::find_if(other.rbegin(), other.rend(), isAsciiAlnum);
    if (key.size() < kLongest && (last == other.rend() || asciiLower(*last) != key.back())) return false;
    return std::string_view(candidate, normalizeInto(other, candidate, kLongest)) == key;
  };
  // A name as the catalog spells it (the default, what `oomlint gpus` lists) first: no normalising (catalog names and
  // aliases are unique once normalised, tests/knowledge_test.cpp, so this finds what the loop below would).
  for (const auto& gpu : all_) {
    if (gpu.name == name || gpu.aliases.indexOf(name)) return &gpu;
  }
  for (const auto& gpu : all_) {
    if (same(gpu.name)) return &gpu;
    for (const auto& alias : gpu.aliases) {
      if (same(alias)) return &gpu;
    }
  }
  return nullptr;
}

std::vector<std::string> GpuCatalog::names() const {
  std::vector<std::string> out;
  for (const auto& gpu : all_) out.push_back(gpu.name);
  return out;
}

const WeightFormat* MemoryModel::format(std::string_view name) const {
  name = qtypeName(name);
  for (const auto& f : weightFormats) {
    if (equalsIgnoringCase(f.name, name)) return &f;
    for (const auto& alias : f.aliases) {
      if (equalsIgnoringCase(alias, name)) return &f;
    }
  }
  return nullptr;
}

const OptimizerState* MemoryModel::optimizer(std::string_view name) const {
  const OptimizerState* best = nullptr;
  for (const auto& o : optimizers) {
    if (equalsIgnoringCase(o.name, name)) return &o;
    if (o.prefix && name.size() >= o.name.size() && equalsIgnoringCase(o.name, name.substr(0, o.name.size())) &&
        (best == nullptr || o.name.size() > best->name.size())) {
      best = &o;
    }
  }
  return best;
}

const VaeConstants* MemoryModel::vae(std::string_view family) const {
  for (const auto& v : vaes) {
    if (v.family == family) return &v;
  }
  return nullptr;
}

ActivationCoefficients MemoryModel::activations(std::string_view family) const {
  for (const auto& f : activationFamilies) {
    if (!family.empty() && f.family == family) return f;
  }
  return {.family = "",
          .blockBytesPerTokenChannel = blockBytesPerTokenChannel,
          .recomputeBytesPerTokenChannel = recomputeBytesPerTokenChannel,
          .inferenceBytesPerTokenChannel = inferenceBytesPerTokenChannel,
          .loraInferenceBytesPerTokenChannel = loraInferenceBytesPerTokenChannel,
          .unetBytesPerLatentPixelCheckpointed = unetBytesPerLatentPixelCheckpointed,
          .unetBytesPerLatentPixelFull = unetBytesPerLatentPixelFull,
          .unetInferenceBytesPerLatentPixel = unetInferenceBytesPerLatentPixel,
          .autocastBlockBytesPerTokenChannel = autocastBlockBytesPerTokenChannel,
          .autocastRecomputeBytesPerTokenChannel = autocastRecomputeBytesPerTokenChannel,
          .autocastLoraInferenceBytesPerTokenChannel = autocastLoraInferenceBytesPerTokenChannel,
          .frozenBlockShare = frozenBlockShare};
}

double MemoryModel::embeddingParams(std::string_view textEncoder) const {
  for (const auto& [name, params] : textEncoderEmbeddings) {
    if (name == textEncoder) return params;
  }
  return 0;
}

std::string FrameGrid::describe() const {
  return std::to_string(multiple) + "n+" + std::to_string(offset);
}

long FrameGrid::nearestBelow(long frames) const {
  if (frames < offset) return offset;
  return offset + ((frames - offset) / multiple) * multiple;
}

const Architecture* Architectures::find(std::string_view name) const {
  name = name.substr(0, name.find(':'));
  for (const auto& a : entries_) {
    if (a.trainerOnly) continue;
    if (a.arch == name || std::find(a.aliases.begin(), a.aliases.end(), name) != a.aliases.end()) return &*a.details;
  }
  return nullptr;
}

const Architecture* Architectures::byId(std::string_view arch) const {
  for (const auto& a : entries_) {
    if (a.arch == arch) return &*a.details;
  }
  return nullptr;
}

const Architecture* Architectures::byLegacyFlag(std::string_view flag) const {
  for (const auto& a : entries_) {
    if (!a.legacyFlag.empty() && a.legacyFlag == flag) return &*a.details;
  }
  return nullptr;
}

std::vector<std::string> Architectures::names() const {
  std::vector<std::string> out;
  for (const auto& a : entries_) {
    if (a.trainerOnly) continue;
    out.push_back(a.arch);
    out.insert(out.end(), a.aliases.begin(), a.aliases.end());
  }
  return out;
}

void Architectures::add(Architecture arch) {
  ArchitectureEntry& entry = entries_.emplace_back();
  entry.arch = arch.arch;
  entry.aliases = arch.aliases;
  entry.legacyFlag = arch.legacyFlag;
  entry.trainerOnly = arch.trainerOnly;
  entry.details.value() = std::move(arch);
}

}  // namespace oomlint
