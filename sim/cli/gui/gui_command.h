// `chaintwin gui`: the Dear ImGui window over a scenario run, or a PNG of it (--screenshot).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace chaintwin::cli {

int gui_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace chaintwin::cli
