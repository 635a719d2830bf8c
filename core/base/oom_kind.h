// How a log ran out of memory, as the JSON report's log `kind` names it (DESIGN.md's log kinds):
// printed and parsed here only, like the vocabularies of base/ids.h.
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace oomlint {

enum class OomKind { None, CudaAlloc, CudaError, CublasAlloc, HipAlloc, MpsAlloc, ComfyAlloc, HostRam };

inline constexpr std::array kOomKindIds = {std::string_view("none"),        std::string_view("cuda_alloc"),
                                           std::string_view("cuda_error"),  std::string_view("cublas_alloc"),
                                           std::string_view("hip_alloc"),   std::string_view("mps_alloc"),
                                           std::string_view("comfy_alloc"), std::string_view("host_ram")};

static_assert(kOomKindIds.size() == static_cast<std::size_t>(OomKind::HostRam) + 1, "one id per kind");

constexpr std::string_view toString(OomKind kind) { return kOomKindIds[static_cast<std::size_t>(kind)]; }

constexpr std::optional<OomKind> parseOomKind(std::string_view id) {
  for (std::size_t i = 0; i < kOomKindIds.size(); ++i) {
    if (kOomKindIds[i] == id) return static_cast<OomKind>(i);
  }
  return std::nullopt;
}

}  // namespace oomlint
