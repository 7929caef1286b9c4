// chaintwin: the one binary. Every subcommand is declared and dispatched by the command line,
// sim/cli/command_line.h (the composition root).
#include <iostream>
#include <string>
#include <vector>

#include "sim/cli/allocator.h"
#include "sim/cli/command_line.h"

int main(int argc, char** argv) {
  chaintwin::cli::tune_allocator();
  return chaintwin::cli::dispatch(std::vector<std::string>(argv + 1, argv + argc), std::cout, std::cerr);
}
