// The allocator of the chaintwin binaries. Both link mimalloc (Debian's libmimalloc-dev) in place of
// glibc's malloc when the build found it (CHAINTWIN_MIMALLOC), and back its heap with 2 MiB pages:
// docs/performance.md, "The allocator", has the measurements behind the choice. The model's output
// does not depend on it: nothing is ordered or hashed by address.
#pragma once

#include <string>

namespace chaintwin::cli {

// Call first in main(), before the run allocates its state. Asks mimalloc for large OS pages unless
// MIMALLOC_LARGE_OS_PAGES is set in the environment (which then decides). No-op without mimalloc.
void tune_allocator();

// "mimalloc 2.0.9, large OS pages" or "glibc malloc": what `chaintwin version` and the bench print.
std::string allocator_name();

}  // namespace chaintwin::cli
