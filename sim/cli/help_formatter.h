// The help chaintwin prints for itself and for each command (`chaintwin help CMD` and
// `chaintwin CMD --help` print the same), made from the declarations in command_line.cpp:
//
//   Usage: chaintwin run [OPTIONS] [SCENARIO]
//
//   <the command's description>
//
//   Arguments:
//     SCENARIO        ...
//   Options:
//     --seed N        override the scenario's seed
//     -o, --output text|json
//                     the report's format (default: text)
//
//   <the footer: exit codes>
//
// A flag's default, whether it is required, repeatable, or goes with or without other flags are
// said after its help, from the declaration.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace chaintwin::cli {

class HelpFormatter : public CLI::Formatter {
 public:
  HelpFormatter();

  std::string make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const override;
  std::string make_usage(const CLI::App* app, std::string name) const override;
  std::string make_subcommands(const CLI::App* app, CLI::AppFormatMode mode) const override;
  std::string make_option_name(const CLI::Option* opt, bool is_positional) const override;
  std::string make_option_opts(const CLI::Option* opt) const override;
  std::string make_option_desc(const CLI::Option* opt) const override;
  std::string make_option_usage(const CLI::Option* opt) const override;
};

// "chaintwin", "chaintwin plan merge": the words that reach `app` from the top.
std::string command_path(const CLI::App* app);

}  // namespace chaintwin::cli
