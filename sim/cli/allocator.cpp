#include "sim/cli/allocator.h"

#include <cstdlib>

#if defined(CHAINTWIN_TCMALLOC)
#include <gperftools/tcmalloc.h>
#elif defined(CHAINTWIN_MIMALLOC)
#include <mimalloc.h>
#endif

namespace chaintwin::cli {

void tune_allocator() {
#if defined(CHAINTWIN_MIMALLOC)
  // Transparent huge pages (mimalloc madvises its segments): on a VM, where a first touch of a
  // 4 KiB page costs microseconds, the run's page faults fall from ~10^5 to ~10^3.
  if (std::getenv("MIMALLOC_LARGE_OS_PAGES") == nullptr) mi_option_set_enabled(mi_option_large_os_pages, true);
#endif
}

std::string allocator_name() {
#if defined(CHAINTWIN_TCMALLOC)
  int major = 0, minor = 0;
  const char* patch = nullptr;
  tc_version(&major, &minor, &patch);
  return "tcmalloc " + std::to_string(major) + "." + std::to_string(minor) + (patch != nullptr ? patch : "");
#elif defined(CHAINTWIN_MIMALLOC)
  const int v = mi_version();  // e.g. 209
  return "mimalloc " + std::to_string(v / 100) + "." + std::to_string(v / 10 % 10) + "." + std::to_string(v % 10) +
         (mi_option_is_enabled(mi_option_large_os_pages) ? ", large OS pages" : "");
#else
  return "glibc malloc";
#endif
}

}  // namespace chaintwin::cli
