#include "sim/input_file.h"

#include <sys/stat.h>

namespace chaintwin::sim {

std::string input_file_problem(const std::string& path, uint64_t max_bytes) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return "";
  if (!S_ISREG(st.st_mode)) return "is not a regular file (a directory, a device or a pipe cannot be read as one)";
  if (static_cast<uint64_t>(st.st_size) > max_bytes)
    return "is " + std::to_string(st.st_size) + " bytes; an input file may have at most " + std::to_string(max_bytes);
  return "";
}

}  // namespace chaintwin::sim
