// The allocator's tuning (sim/cli/allocator.h): with tcmalloc, the heap grows in runs advised for
// transparent huge pages, which the kernel's list of the process's mappings shows.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "sim/cli/allocator.h"

namespace {

// The VmFlags line of the mapping of /proc/self/smaps holding `address` ("" when none does).
std::string vm_flags_at(const void* address) {
  const auto at = reinterpret_cast<std::uintptr_t>(address);
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    std::uintptr_t from = 0, to = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> from >> dash >> to && dash == '-' && line.find(':') > line.find(' ')) {
      inside = from <= at && at < to;
      continue;
    }
    if (inside && line.rfind("VmFlags:", 0) == 0) return line;
  }
  return "";
}

}  // namespace

TEST_CASE("with tcmalloc, a block the heap grew for lies in a mapping advised for huge pages", "[allocator]") {
  unsetenv("CHAINTWIN_TCMALLOC_SMALL_PAGES");
  chaintwin::cli::tune_allocator();
  const std::string name = chaintwin::cli::allocator_name();
  INFO(name);
  if (name.rfind("tcmalloc", 0) != 0) {
    WARN("this build does not link tcmalloc (CHAINTWIN_ALLOCATOR): nothing to check here");
    return;
  }
  CHECK(name.find(", huge pages") != std::string::npos);
  // 96 MiB: more than tcmalloc keeps free, so its page heap asks the system for more.
  constexpr std::size_t kBlock = std::size_t{96} << 20;
  const std::unique_ptr<char[]> block(new char[kBlock]);
  block[0] = block[kBlock - 1] = 1;
  const std::string flags = vm_flags_at(block.get());
  INFO(flags);
  REQUIRE_FALSE(flags.empty());
  CHECK(flags.find(" hg") != std::string::npos);  // madvise(MADV_HUGEPAGE)
}
