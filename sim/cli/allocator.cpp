#include "sim/cli/allocator.h"

#include <cstdint>
#include <cstdlib>
#include <new>

#if defined(CHAINTWIN_TCMALLOC)
#include <gperftools/malloc_extension.h>
#include <gperftools/tcmalloc.h>
#include <sys/mman.h>
#elif defined(CHAINTWIN_MIMALLOC)
#include <mimalloc.h>
#endif

namespace chaintwin::cli {

#if defined(CHAINTWIN_TCMALLOC)
namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;

// tcmalloc grows its page heap from the system a piece at a time (sbrk, else mmap), in 4 KiB pages
// that fault one by one when first touched. This hands it whole 2 MiB-aligned runs of 2 MiB,
// marked MADV_HUGEPAGE, so that the kernel backs them with transparent huge pages where it has them
// ("madvise" mode, the common default): a first touch costs one fault per 2 MiB, and the heap's
// TLB entries cover 512 times the memory. A request that cannot take more than it asked for (no
// `actual_size`), or that wants a larger alignment, goes to tcmalloc's own system allocator.
class HugePageSystemAllocator final : public SysAllocator {
 public:
  explicit HugePageSystemAllocator(SysAllocator* fallback) : fallback_(fallback) {}

  void* Alloc(std::size_t size, std::size_t* actual_size, std::size_t alignment) override {
    if (actual_size == nullptr || alignment > kHugePage || size > (SIZE_MAX >> 1))
      return fallback_->Alloc(size, actual_size, alignment);
    const std::size_t rounded = (size + kHugePage - 1) & ~(kHugePage - 1);
    void* raw = mmap(nullptr, rounded + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) return fallback_->Alloc(size, actual_size, alignment);
    // The aligned run inside what was mapped; the slack before and after it goes back.
    const auto base = reinterpret_cast<std::uintptr_t>(raw);
    const std::uintptr_t start = (base + kHugePage - 1) & ~(std::uintptr_t{kHugePage} - 1);
    if (start > base) munmap(raw, start - base);
    if (const std::size_t tail = kHugePage - (start - base); tail > 0)
      munmap(reinterpret_cast<void*>(start + rounded), tail);
    madvise(reinterpret_cast<void*>(start), rounded, MADV_HUGEPAGE);  // advice: a refusal changes nothing else
    *actual_size = rounded;
    return reinterpret_cast<void*>(start);
  }

 private:
  SysAllocator* fallback_;
};

}  // namespace
#endif

namespace {
bool huge_pages_installed = false;
}  // namespace

void tune_allocator() {
#if defined(CHAINTWIN_TCMALLOC)
  // Once per process; the allocator lives as long as the heap it feeds (never destroyed).
  static const bool installed = [] {
    if (std::getenv("CHAINTWIN_TCMALLOC_SMALL_PAGES") != nullptr) return false;
    MallocExtension* tc = MallocExtension::instance();
    alignas(HugePageSystemAllocator) static unsigned char storage[sizeof(HugePageSystemAllocator)];
    tc->SetSystemAllocator(new (storage) HugePageSystemAllocator(tc->GetSystemAllocator()));
    return true;
  }();
  huge_pages_installed = installed;
#endif
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
  return "tcmalloc " + std::to_string(major) + "." + std::to_string(minor) + (patch != nullptr ? patch : "") +
         (huge_pages_installed ? ", huge pages" : "");
#elif defined(CHAINTWIN_MIMALLOC)
  const int v = mi_version();  // e.g. 209
  return "mimalloc " + std::to_string(v / 100) + "." + std::to_string(v / 10 % 10) + "." + std::to_string(v % 10) +
         (mi_option_is_enabled(mi_option_large_os_pages) ? ", large OS pages" : "");
#else
  return "glibc malloc";
#endif
}

}  // namespace chaintwin::cli
