// chaintwin: the one binary. Subcommands are dispatched from here (the composition root): the
// GUI (sim/cli/gui/), `serve`, `live` and `snapshot`, here; every other command by dispatch().
#include <iostream>
#include <string>
#include <vector>

#include "sim/cli/commands.h"
#include "sim/cli/live_command.h"
#include "sim/cli/serve_command.h"
#include "sim/cli/snapshot_command.h"
#include "sim/cli/gui/gui_command.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && args[0] == "gui")
    return chaintwin::cli::gui_command({args.begin() + 1, args.end()}, std::cout, std::cerr);
  if (!args.empty() && args[0] == "live")
    return chaintwin::cli::live_command({args.begin() + 1, args.end()}, std::cout, std::cerr, chaintwin::cli::live_gui);
  if (args.size() >= 2 && (args[0] == "help" || args[0] == "--help") && args[1] == "live")
    return chaintwin::cli::live_command({"--help"}, std::cout, std::cerr);
  if (!args.empty() && args[0] == "snapshot")
    return chaintwin::cli::snapshot_command({args.begin() + 1, args.end()}, std::cout, std::cerr);
  if (!args.empty() && args[0] == "serve")
    return chaintwin::cli::serve_command({args.begin() + 1, args.end()}, std::cout, std::cerr);
  if (args.size() >= 2 && (args[0] == "help" || args[0] == "--help") && args[1] == "gui")
    return chaintwin::cli::gui_command({"--help"}, std::cout, std::cerr);
  if (args.size() >= 2 && (args[0] == "help" || args[0] == "--help") && args[1] == "serve")
    return chaintwin::cli::serve_command({"--help"}, std::cout, std::cerr);
  return chaintwin::cli::dispatch(args, std::cout, std::cerr);
}
