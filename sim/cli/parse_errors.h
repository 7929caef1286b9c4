// What the command line says when the words it was given do not parse: one line that names the
// flag (or argument, or command) and what was expected, for the command it belongs to. CLI11
// reports these as exceptions with its own wording; they are turned into chaintwin's:
//
//   unknown flag '--fast'
//   --seed needs a value: a whole number from 0 to 18446744073709551615
//   --verify takes no value
//   no SCENARIO given
//   --nodes FILE is required
//   --dry-run needs --apply
//   --grid does not go with --adaptive
//   unknown command 'frobnicate' (expected one of: run, check, ...)
//
// A value refused by its kind (flag_binding.h) already carries its line and is kept as it is.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "sim/cli/flag_binding.h"

namespace chaintwin::cli {

struct ParseFailure {
  const CLI::App* command = nullptr;  // the (sub)command the error belongs to
  std::string message;                // one line, no trailing newline
};

// `root` after a parse that threw `error`.
ParseFailure describe_parse_error(const CLI::App& root, const CLI::ParseError& error, const FlagNotes& notes);

// The command the parse reached last (root when no subcommand was given).
const CLI::App* deepest_command(const CLI::App& root);

}  // namespace chaintwin::cli
