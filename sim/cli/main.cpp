// chaintwin: the one binary. Subcommands are dispatched from here (the composition root).
#include <iostream>
#include <string>
#include <vector>

#include "sim/cli/commands.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  return chaintwin::cli::dispatch(args, std::cout, std::cerr);
}
