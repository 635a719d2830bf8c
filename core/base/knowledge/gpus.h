// The GPU catalog (rules/gpus.yaml): memory as PyTorch reports it, per platform.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/knowledge/knowledge_text.h"

namespace oomlint {

struct Gpu {
  KnowledgeText name;
  KnowledgeTexts aliases;
  KnowledgeText vendor;
  KnowledgeText arch;  // AMD's LLVM target (gfx1100 …); empty for other vendors
  KnowledgeText gpuClass;
  double marketingGb = 0;
  std::uint64_t linuxBytes = 0;
  std::uint64_t windowsBytes = 0;  // 0 when not applicable
  double computeCapability = 0;    // NVIDIA's (7.5 Turing, 8.6 Ampere …); 0 for other vendors
};

// Each struct's fields, for the rules compiler's tables (knowledge_tape.h): a field left out of
// its list is not compiled in, and reads as its default at run time.
template <class V> void fields(V& v, Gpu& x) { v(x.name, x.aliases, x.vendor, x.arch, x.gpuClass, x.marketingGb, x.linuxBytes, x.windowsBytes, x.computeCapability); }

class GpuCatalog {
 public:
  template <class V> friend void fields(V& v, GpuCatalog& x);  // knowledge_tape.h
  // Forgiving lookup: case, spaces, hyphens and vendor words do not matter ("rtx4090", "GeForce RTX 4090").
  const Gpu* find(std::string_view name) const;
  std::vector<std::string> names() const;
  const std::vector<Gpu>& all() const { return all_; }
  void add(Gpu gpu) { all_.push_back(std::move(gpu)); }

 private:
  std::vector<Gpu> all_;
};

template <class V> void fields(V& v, GpuCatalog& x) { v(x.all_); }

std::string normalizeGpuName(std::string_view name);

}  // namespace oomlint
