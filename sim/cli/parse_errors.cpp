#include "sim/cli/parse_errors.h"

#include <vector>

namespace chaintwin::cli {
namespace {

// root, then each parsed subcommand down to the deepest.
std::vector<const CLI::App*> parsed_path(const CLI::App& root) {
  std::vector<const CLI::App*> path{&root};
  while (!path.back()->get_subcommands().empty()) path.push_back(path.back()->get_subcommands().back());
  return path;
}

const CLI::Option* find_option(const std::vector<const CLI::App*>& path, const std::string& name) {
  for (auto it = path.rbegin(); it != path.rend(); ++it)
    if (const CLI::Option* o = (*it)->get_option_no_throw(name)) return o;
  return nullptr;
}

std::string named_commands(const CLI::App* app) {
  std::string out;
  for (const CLI::App* s : app->get_subcommands([](const CLI::App* a) { return !a->get_name().empty(); }))
    out += (out.empty() ? "" : ", ") + s->get_name();
  return out;
}

// "X <verb> Y" as CLI11 words requirements between options, with X and Y their long names.
bool split_pair(const std::string& text, const std::string& verb, std::string& x, std::string& y) {
  const size_t at = text.find(" " + verb + " ");
  if (at == std::string::npos) return false;
  x = text.substr(0, at);
  y = text.substr(at + verb.size() + 2);
  return true;
}

std::string label_of(const std::vector<const CLI::App*>& path, const std::string& name) {
  const CLI::Option* o = find_option(path, name);
  return o != nullptr ? flag_label(o) : name;
}

}  // namespace

const CLI::App* deepest_command(const CLI::App& root) { return parsed_path(root).back(); }

ParseFailure describe_parse_error(const CLI::App& root, const CLI::ParseError& error, const FlagNotes& notes) {
  const auto path = parsed_path(root);
  const CLI::App* command = path.back();
  const std::string what = error.what();
  if (dynamic_cast<const CLI::ExtrasError*>(&error) != nullptr) {
    for (const CLI::App* app : path) {
      const auto rest = app->remaining(false);
      if (rest.empty()) continue;
      const std::string& word = rest.front();
      if (word.size() > 1 && word[0] == '-') return {app, "unknown flag '" + word + "'"};
      const std::string commands = named_commands(app);
      if (!commands.empty() && app->get_options([](const CLI::Option* o) { return o->get_positional(); }).empty())
        return {app, "unknown command '" + word + "' (expected one of: " + commands + ")"};
      return {app, "unexpected argument '" + word + "'"};
    }
    return {command, what};
  }
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&error) != nullptr) {
    // "--verify=1": CLI11 names the flag without its dashes.
    const std::string override_said = " was given a disallowed flag override";
    if (what.size() > override_said.size() && what.find(override_said) == what.size() - override_said.size()) {
      const std::string name = what.substr(0, what.size() - override_said.size());
      const CLI::Option* o = find_option(path, (name.size() == 1 ? "-" : "--") + name);
      return {command, (o != nullptr ? flag_label(o) : name) + " takes no value"};
    }
    const CLI::Option* o = find_option(path, what.substr(0, what.find(':')));
    if (o == nullptr) return {command, what};
    const auto expected = notes.expected.find(o);
    return {command, flag_label(o) + " needs a value" + (expected == notes.expected.end() ? "" : ": " + expected->second)};
  }
  if (dynamic_cast<const CLI::RequiredError*>(&error) != nullptr) {
    const std::string suffix = " is required";
    const bool about_option = what.size() > suffix.size() && what.compare(what.size() - suffix.size(), suffix.size(), suffix) == 0;
    const CLI::Option* o = about_option ? find_option(path, what.substr(0, what.size() - suffix.size())) : nullptr;
    if (o != nullptr && o->get_positional()) return {command, "no " + o->get_name(true) + " given"};
    if (o != nullptr) return {command, flag_label(o) + " " + o->get_type_name() + " is required"};
    const std::string commands = named_commands(command);
    if (!commands.empty() && !command->remaining(false).empty())
      return {command, "unknown command '" + command->remaining(false).front() + "' (expected one of: " + commands + ")"};
    if (!commands.empty()) return {command, "expected a command (one of: " + commands + ")"};
    return {command, what};
  }
  std::string x, y;
  if (dynamic_cast<const CLI::RequiresError*>(&error) != nullptr && split_pair(what, "requires", x, y))
    return {command, label_of(path, x) + " needs " + label_of(path, y)};
  if (dynamic_cast<const CLI::ExcludesError*>(&error) != nullptr && split_pair(what, "excludes", x, y))
    return {command, label_of(path, x) + " does not go with " + label_of(path, y)};
  return {command, what};
}

}  // namespace chaintwin::cli
