// Binds a flag or argument declared on a CLI11 app (command_line.cpp) to a typed field of a
// command's options struct through a ValueKind (flag_values.h): the kind's placeholder and default
// go into the help, and a value it refuses stops the parse with one line naming the flag, what it
// expects and what was given:
//
//   --seed: expected a whole number from 0 to 18446744073709551615, got '-1'
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "sim/cli/flag_values.h"

namespace chaintwin::cli {

// What the declarations note beside CLI11's tree: what every value-taking option expects (said
// when the value is missing).
struct FlagNotes {
  std::map<const CLI::Option*, std::string> expected;
};

// The flag as errors name it: its short name when it has one (-o, -j), else its long name, or the
// argument's name (SCENARIO).
std::string flag_label(const CLI::Option* opt);

namespace detail {

template <typename T>
T read_value(const ValueKind<T>& kind, const std::string& text, const std::string& label) {
  auto v = kind.parse(text);
  if (!v) throw CLI::ValidationError(label + ": expected " + kind.expected + ", got '" + text + "'");
  return std::move(*v);
}

// The option's label, known only once CLI11 made the option; filled right after.
using Label = std::shared_ptr<std::string>;

template <typename T>
CLI::Option* declare(CLI::App& app, FlagNotes& notes, const std::string& names, const ValueKind<T>& kind,
                     const std::string& help, std::function<void(const CLI::results_t&, const std::string&)> store) {
  auto label = std::make_shared<std::string>();
  CLI::Option* opt = app.add_option(
      names,
      [store, label](const CLI::results_t& values) {
        store(values, *label);
        return true;
      },
      help);
  opt->type_name(kind.type_name);
  *label = flag_label(opt);
  notes.expected[opt] = kind.expected;
  return opt;
}

}  // namespace detail

// A flag (or argument) with one value, stored in `target`; its current value is the default help shows.
template <typename T>
CLI::Option* add_value(CLI::App& app, FlagNotes& notes, const std::string& names, T& target, const ValueKind<T>& kind,
                       const std::string& help) {
  CLI::Option* opt = detail::declare<T>(app, notes, names, kind, help,
                                        [&target, kind](const CLI::results_t& values, const std::string& label) {
                                          target = detail::read_value(kind, values.back(), label);
                                        });
  if (const std::string shown = kind.show(target); !shown.empty()) opt->default_str(shown);
  return opt;
}

// A flag (or argument) with one value and no default.
template <typename T>
CLI::Option* add_value(CLI::App& app, FlagNotes& notes, const std::string& names, std::optional<T>& target,
                       const ValueKind<T>& kind, const std::string& help) {
  return detail::declare<T>(app, notes, names, kind, help,
                            [&target, kind](const CLI::results_t& values, const std::string& label) {
                              target = detail::read_value(kind, values.back(), label);
                            });
}

// A repeatable flag (--set A=1 --set B=2), or an argument taking one or more values (FILE...).
template <typename T>
CLI::Option* add_values(CLI::App& app, FlagNotes& notes, const std::string& names, std::vector<T>& target,
                        const ValueKind<T>& kind, const std::string& help) {
  CLI::Option* opt = detail::declare<T>(app, notes, names, kind, help,
                                        [&target, kind](const CLI::results_t& values, const std::string& label) {
                                          target.clear();
                                          for (const auto& v : values) target.push_back(detail::read_value(kind, v, label));
                                        });
  opt->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  if (opt->get_positional()) opt->expected(1, CLI::detail::expected_max_vector_size)->allow_extra_args(true);
  return opt;
}

// A flag without a value (--verify).
inline CLI::Option* add_switch(CLI::App& app, const std::string& names, bool& target, const std::string& help) {
  return app.add_flag(names, target, help)->disable_flag_override();
}

}  // namespace chaintwin::cli
