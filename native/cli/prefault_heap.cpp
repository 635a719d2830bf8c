#include "cli/prefault_heap.h"

#include <cstdint>
#include <cstdlib>

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#endif

namespace oomlint::cli {

void prefaultHeap(unsigned long bytes) {
#if defined(__linux__) && defined(__GLIBC__) && defined(MADV_POPULATE_WRITE) && !defined(__SANITIZE_ADDRESS__)
  // A block of `bytes` from glibc's main heap (not a mapping of its own: the mmap threshold is raised
  // above it), populated, then freed: it stays at the heap's top (the trim threshold is raised too),
  // and the allocations that follow reuse its pages without a fault each.
  const int size = static_cast<int>(bytes);
  if (mallopt(M_MMAP_THRESHOLD, 2 * size) != 1 || mallopt(M_TRIM_THRESHOLD, 4 * size) != 1) return;
  void* block = std::malloc(bytes);
  if (block == nullptr) return;
  const auto begin = (reinterpret_cast<std::uintptr_t>(block) + 4095) & ~std::uintptr_t{4095};
  const auto end = (reinterpret_cast<std::uintptr_t>(block) + bytes) & ~std::uintptr_t{4095};
  if (begin < end) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE);  // failure is harmless
  std::free(block);
#else
  (void)bytes;
#endif
}

}  // namespace oomlint::cli
