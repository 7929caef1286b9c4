#include "sim/cli/commands.h"

#include "sim/cli/derive_command.h"

namespace chaintwin::cli {
namespace {

constexpr const char* kUsage = R"(chaintwin — a digital twin of the GPUStack operator's device scheduling chain on Kueue

Usage:
  chaintwin [run]            derive the chain of the bundled example cluster and print it
  chaintwin derive FILE...   read Kubernetes objects (Node, Devices, Setting; YAML or JSON) and
                             print, per Node, the labels, capacity keys and fit labels the
                             operator would publish, and the patch that gets there
  chaintwin help [COMMAND]   this text, or a command's own help

Exit codes: 0 success, 1 a check failed, 2 bad input.
)";

}  // namespace

int dispatch(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty() || args[0] == "run") {
    std::vector<std::string> rest(args.empty() ? args.begin() : args.begin() + 1, args.end());
    return run_default_command(rest, out, err);
  }
  const std::string& cmd = args[0];
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (cmd == "-h" || cmd == "--help" || cmd == "help") {
    if (!rest.empty() && rest[0] == "derive") return derive_command({"--help"}, out, err);
    if (!rest.empty() && rest[0] == "run") return run_default_command({"--help"}, out, err);
    out << kUsage;
    return 0;
  }
  if (cmd == "derive") return derive_command(rest, out, err);
  err << "chaintwin: unknown command '" << cmd << "'\n\n" << kUsage;
  return 2;
}

}  // namespace chaintwin::cli
