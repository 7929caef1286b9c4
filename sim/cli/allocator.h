// The allocator of the chaintwin binaries: gperftools' tcmalloc (Debian's libgoogle-perftools-dev,
// CHAINTWIN_TCMALLOC) in place of glibc's malloc, or mimalloc (CHAINTWIN_MIMALLOC) or glibc's when
// the build asks (CMake's CHAINTWIN_ALLOCATOR). docs/performance.md, "The allocator", has the
// measurements behind the choice. The model's output does not depend on it: nothing is ordered or
// hashed by address.
#pragma once

#include <string>

namespace chaintwin::cli {

// Call first in main(), before the run allocates its state. With tcmalloc, has its page heap grow
// in 2 MiB-aligned runs advised for transparent huge pages, unless CHAINTWIN_TCMALLOC_SMALL_PAGES is
// set in the environment; with mimalloc, asks for large OS pages unless MIMALLOC_LARGE_OS_PAGES is
// set (which then decides); with glibc's malloc, a no-op.
void tune_allocator();

// "tcmalloc 2.10, huge pages", "mimalloc 2.0.9, large OS pages" or "glibc malloc": what
// `chaintwin --version` and the bench print.
std::string allocator_name();

}  // namespace chaintwin::cli
