#include "sim/cli/flag_binding.h"

namespace chaintwin::cli {

std::string flag_label(const CLI::Option* opt) {
  if (!opt->get_snames().empty()) return "-" + opt->get_snames().front();
  if (!opt->get_lnames().empty()) return "--" + opt->get_lnames().front();
  return opt->get_name(true);
}

}  // namespace chaintwin::cli
