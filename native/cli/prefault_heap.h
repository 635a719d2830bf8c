// Start-up help for a short-lived process: its heap is faulted in with one system call instead of a
// page at a time. A check touches about 1.5 MiB of fresh heap (the embedded knowledge's trees and
// tables, then the config's), and on virtual machines a page fault costs microseconds, which made
// them most of a check's time (docs/performance.md).
#pragma once

namespace oomlint::cli {

// Takes a block of `bytes` from glibc's heap, has the kernel populate its pages (MADV_POPULATE_WRITE,
// Linux 5.14+) and frees it for the allocations that follow. Does nothing where that is not possible:
// another allocator (the sanitizers'), another system, an older kernel.
void prefaultHeap(unsigned long bytes);

}  // namespace oomlint::cli
