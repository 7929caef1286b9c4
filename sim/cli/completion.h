// `chaintwin completion bash`: a bash completion script made by walking the command line's
// declarations (the CLI11 tree command_line.cpp builds), so it offers exactly the commands and
// flags the parser accepts: command names, each command's flags, the choices of a flag whose
// values are a list (-o text|json), files where a flag or argument takes a file (its placeholder
// names a FILE or an extension: FILE, SCENARIO.yaml, FILE.db), directories for a DIR, nothing for
// numbers and durations.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace chaintwin::cli {

std::string bash_completion(const CLI::App& root);

}  // namespace chaintwin::cli
