#include "sim/cli/help_formatter.h"

#include <algorithm>
#include <sstream>
#include <vector>

#include "sim/cli/flag_binding.h"

namespace chaintwin::cli {
namespace {

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

// The options as errors name them, in alphabetical order (CLI11 keeps them in a set ordered by
// address).
std::string names_of(const std::set<CLI::Option*>& options) {
  std::vector<std::string> names;
  for (const CLI::Option* o : options) names.push_back(flag_label(o));
  std::sort(names.begin(), names.end());
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

bool is_list(const CLI::Option* opt) { return opt->get_expected_max() > 1; }

}  // namespace

std::string command_path(const CLI::App* app) {
  std::string path;
  for (const CLI::App* a = app; a != nullptr; a = a->get_parent()) path = a->get_name() + (path.empty() ? "" : " " + path);
  return path;
}

HelpFormatter::HelpFormatter() {
  column_width(26);
  label("Positionals", "Arguments");
  label("OPTIONS", "OPTIONS");
}

std::string HelpFormatter::make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const {
  if (mode == CLI::AppFormatMode::Sub) return make_expanded(app);
  std::ostringstream out;
  out << make_usage(app, name.empty() ? command_path(app) : name);
  if (!app->get_description().empty()) out << "\n" << app->get_description() << "\n";
  out << make_positionals(app);
  out << make_groups(app, mode);
  out << make_subcommands(app, mode);
  if (!app->get_footer().empty()) out << "\n" << app->get_footer() << "\n";
  return out.str();
}

std::string HelpFormatter::make_usage(const CLI::App* app, std::string name) const {
  std::ostringstream out;
  out << "Usage: " << name;
  const auto subcommands = app->get_subcommands([](const CLI::App* s) { return !s->get_name().empty(); });
  if (!subcommands.empty() && app->get_parent() == nullptr) out << " [COMMAND]";
  if (!app->get_options([](const CLI::Option* o) { return o->nonpositional(); }).empty()) out << " [OPTIONS]";
  for (const CLI::Option* p : app->get_options([](const CLI::Option* o) { return o->get_positional(); }))
    out << " " << make_option_usage(p);
  if (!subcommands.empty() && app->get_parent() != nullptr)
    out << (app->get_require_subcommand_min() > 0 ? " COMMAND" : " [COMMAND]");
  out << "\n";
  return out.str();
}

std::string HelpFormatter::make_subcommands(const CLI::App* app, CLI::AppFormatMode) const {
  const auto subcommands = app->get_subcommands([](const CLI::App* s) { return !s->get_name().empty(); });
  if (subcommands.empty()) return "";
  std::ostringstream out;
  out << "\nCommands:\n";
  for (const CLI::App* s : subcommands) CLI::detail::format_help(out, s->get_name(), first_line(s->get_description()), column_width_);
  return out.str();
}

std::string HelpFormatter::make_option_name(const CLI::Option* opt, bool is_positional) const {
  if (is_positional) return opt->get_name(true) + (is_list(opt) ? "..." : "");
  std::string out;
  for (const auto& s : opt->get_snames()) out += (out.empty() ? "-" : ", -") + s;
  for (const auto& l : opt->get_lnames()) out += (out.empty() ? "--" : ", --") + l;
  return out;
}

std::string HelpFormatter::make_option_opts(const CLI::Option* opt) const {
  if (opt->get_positional() || opt->get_expected_max() == 0 || opt->get_type_size() == 0) return "";
  return " " + opt->get_type_name();
}

std::string HelpFormatter::make_option_desc(const CLI::Option* opt) const {
  std::string desc = opt->get_description();
  std::string notes;
  const auto note = [&](const std::string& n) { notes += (notes.empty() ? "" : "; ") + n; };
  if (!opt->get_default_str().empty()) note("default: " + opt->get_default_str());
  if (opt->get_required()) note("required");
  if (opt->nonpositional() && opt->get_multi_option_policy() == CLI::MultiOptionPolicy::TakeAll) note("repeatable");
  if (!opt->get_needs().empty()) note("with " + names_of(opt->get_needs()));
  if (!opt->get_excludes().empty()) note("not with " + names_of(opt->get_excludes()));
  if (notes.empty()) return desc;
  const bool new_line = desc.find('\n') != std::string::npos || desc.size() + notes.size() > 70;
  return desc + (new_line ? "\n(" : " (") + notes + ")";
}

std::string HelpFormatter::make_option_usage(const CLI::Option* opt) const {
  const std::string name = make_option_name(opt, true);
  return opt->get_required() ? name : "[" + name + "]";
}

}  // namespace chaintwin::cli
