#include "sim/cli/derive_command.h"

namespace chaintwin::cli {

int derive_command(const std::vector<std::string>& /*args*/, std::ostream& /*out*/, std::ostream& err) {
  err << "chaintwin derive: not built yet\n";
  return 2;
}

int run_default_command(const std::vector<std::string>& /*args*/, std::ostream& /*out*/, std::ostream& err) {
  err << "chaintwin run: not built yet\n";
  return 2;
}

}  // namespace chaintwin::cli
