#include "report/log_analysis.h"

namespace oomlint {

std::string_view toString(OomKind kind) {
  switch (kind) {
    case OomKind::None: return "none";
    case OomKind::CudaAlloc: return "cuda_alloc";
    case OomKind::CudaError: return "cuda_error";
    case OomKind::CublasAlloc: return "cublas_alloc";
    case OomKind::HipAlloc: return "hip_alloc";
    case OomKind::MpsAlloc: return "mps_alloc";
    case OomKind::ComfyAlloc: return "comfy_alloc";
    case OomKind::HostRam: return "host_ram";
  }
  return "none";
}

}  // namespace oomlint
