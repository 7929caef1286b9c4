// The chaintwin command line, and the binary's composition root: the one place that declares
// every subcommand, its flags, their types, defaults and help (CLI11, command_line.cpp), parses
// the words given, and runs the command with its typed options (run_command.h, plan_command.h,
// gui/gui_command.h, live_command.h, ...). `chaintwin help CMD`, `chaintwin CMD --help` and
// `chaintwin completion bash` are made from the same declarations.
//
// Exit codes: 0 success, 1 a check or expectation failed, 2 bad input — a refused command line
// prints one line naming the flag and what it expects, then `(see chaintwin CMD --help)`.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace chaintwin::cli {

// Runs `chaintwin ARGS...` (ARGS without the program name); with no ARGS, `chaintwin run`.
int dispatch(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// Every command as its words after "chaintwin" ("run", "plan merge", "import openb"), in the
// order they are declared.
std::vector<std::string> command_paths();

}  // namespace chaintwin::cli
