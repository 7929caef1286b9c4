// What chaintwin accepts as an input file before it reads one whole: a regular file (a directory,
// a device such as /dev/zero, a FIFO or a socket would never end or make no sense) of at most
// kMaxInputFileBytes. Every reader of scenarios, included files, Kubernetes objects, CSVs, plans,
// kubeconfigs and reports asks first, so no input can hang the program or exhaust its memory.
#pragma once

#include <cstdint>
#include <string>

namespace chaintwin::sim {

inline constexpr uint64_t kMaxInputFileBytes = uint64_t{1} << 30;  // 1 GiB (the openb CSVs are a few MB)

// Why `path` cannot be read as an input file ("" when it can, or when it does not exist: the
// caller's open then fails with its own message), e.g. "is not a regular file (a directory, a
// device or a pipe)" or "is 2147483648 bytes; an input file may have at most 1073741824".
std::string input_file_problem(const std::string& path, uint64_t max_bytes = kMaxInputFileBytes);

}  // namespace chaintwin::sim
