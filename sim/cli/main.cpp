// chaintwin: the one binary. Every subcommand is declared and dispatched by the command line,
// sim/cli/command_line.h (the composition root).
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "sim/cli/allocator.h"
#include "sim/cli/command_line.h"

// The last line of defence: whatever escapes a command (a bug, an input no check foresaw, memory
// exhausted) is reported in one line and ends the program with 70 (EX_SOFTWARE), never an abort.
int main(int argc, char** argv) {
  try {
    chaintwin::cli::tune_allocator();
    return chaintwin::cli::dispatch(std::vector<std::string>(argv + 1, argv + argc), std::cout, std::cerr);
  } catch (const std::bad_alloc&) {
    std::cout.flush();
    std::cerr << "chaintwin: out of memory\n";
  } catch (const std::exception& e) {
    std::cout.flush();
    std::cerr << "chaintwin: internal error: " << e.what() << " (a bug: please report it with the input)\n";
  } catch (...) {
    std::cout.flush();
    std::cerr << "chaintwin: internal error (a bug: please report it with the input)\n";
  }
  return 70;
}
