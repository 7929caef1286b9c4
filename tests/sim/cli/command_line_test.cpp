// The chaintwin command line (sim/cli/command_line.h): refused words exit 2 with one line naming
// the flag and what it expects; `help CMD` is `CMD --help`; the completion script offers every
// command and every flag the help lists.
#include <catch2/catch.hpp>

#include <sstream>

#include "sim/cli/command_line.h"

namespace {

using namespace chaintwin;

struct Outcome {
  int code;
  std::string out, err;
};

Outcome run(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  const int code = cli::dispatch(args, out, err);
  return {code, out.str(), err.str()};
}

std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// The flags a command's help lists ("  -o, --output text|json  ..." gives -o and --output).
std::vector<std::string> flags_in_help(const std::string& help) {
  std::vector<std::string> flags;
  std::istringstream in(help);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("  -", 0) != 0) continue;
    std::istringstream l(line);
    for (std::string w; l >> w;) {
      if (w.back() == ',') w.pop_back();
      if (w.size() < 2 || w[0] != '-') break;
      flags.push_back(w);
    }
  }
  return flags;
}

const std::string k2to64 = "18446744073709551615";

}  // namespace

TEST_CASE("a refused command line exits 2 with one line naming the flag and what it expects", "[cli]") {
  struct Row {
    std::string args;
    std::string err;  // the first line
  };
  const std::string seed = "a whole number from 0 to " + k2to64;
  const std::string dur = "a duration such as 30s, 15m, 6h or 2d (an integer with a unit: us, ms, s, m, h, d)";
  const Row rows[] = {
      // unknown words
      {"frobnicate", "chaintwin: unknown command 'frobnicate' (expected one of: run, check, compare, derive, import, "
                     "full-demand, explain, plan, gui, serve, live, snapshot, help, completion)"},
      {"--seed 1", "chaintwin: unknown flag '--seed'"},
      {"run --fast", "chaintwin run: unknown flag '--fast'"},
      {"run a.yaml b.yaml", "chaintwin run: unexpected argument 'b.yaml'"},
      {"import csv", "chaintwin import: unknown command 'csv' (expected one of: openb)"},
      {"import", "chaintwin import: expected a command (one of: openb)"},
      {"help nope", "chaintwin help: unknown command 'nope' (expected one of: run, check, compare, derive, import, "
                    "full-demand, explain, plan, gui, serve, live, snapshot, help, completion)"},
      {"help plan nope", "chaintwin help: unknown command 'nope' (expected one of: merge)"},
      {"check --verify=1 a.yaml", "chaintwin check: --verify takes no value"},
      // a value missing
      {"run --seed", "chaintwin run: --seed needs a value: " + seed},
      {"run -o", "chaintwin run: -o needs a value: one of text, json"},
      {"gui --speed", "chaintwin gui: --speed needs a value: a number of simulated seconds per wall second greater "
                      "than 0 and at most 1e+12"},
      // a value of the wrong kind
      {"run -o xml", "chaintwin run: -o: expected one of text, json, got 'xml'"},
      {"run --output=xml", "chaintwin run: -o: expected one of text, json, got 'xml'"},
      {"run --until soon", "chaintwin run: --until: expected " + dur + ", got 'soon'"},
      {"run --seed 12x", "chaintwin run: --seed: expected " + seed + ", got '12x'"},
      {"live --burst 1.5", "chaintwin live: --burst: expected a whole number from 1 to 1000000, got '1.5'"},
      {"gui --size 1280*800", "chaintwin gui: --size: expected WxH in pixels, from 320x240 to 8192x8192 (e.g. 1280x800), "
                              "got '1280*800'"},
      {"gui --panel nope", "chaintwin gui: --panel: expected one of pools, credits, nodes, cards, workloads, pending, "
                           "drains, chain, events, drift, plan, got 'nope'"},
      {"serve --faults slow=2", "chaintwin serve: --faults: expected NAME=P[,NAME=P...] with NAME one of conflict, error, "
                                "throttle, slow, gone, drop and P from 0 to 1, got 'slow=2'"},
      {"derive --set mixed x.yaml", "chaintwin derive: --set: expected NAME=VALUE (both parts not empty), got 'mixed'"},
      {"completion fish", "chaintwin completion: SHELL: expected one of bash, got 'fish'"},
      // out of range: never an uncaught exception
      {"run --seed 18446744073709551616", "chaintwin run: --seed: expected " + seed + ", got '18446744073709551616'"},
      {"run --seed 99999999999999999999999", "chaintwin run: --seed: expected " + seed + ", got '99999999999999999999999'"},
      {"run --seed -1", "chaintwin run: --seed: expected " + seed + ", got '-1'"},
      {"serve --fault-seed 18446744073709551616",
       "chaintwin serve: --fault-seed: expected " + seed + ", got '18446744073709551616'"},
      {"serve --listen 127.0.0.1:65536", "chaintwin serve: --listen: expected HOST:PORT with PORT from 0 to 65535 "
                                         "(e.g. 127.0.0.1:8080), got '127.0.0.1:65536'"},
      {"serve --listen 127.0.0.1:99999999999999999999", "chaintwin serve: --listen: expected HOST:PORT with PORT from 0 "
                                                        "to 65535 (e.g. 127.0.0.1:8080), got '127.0.0.1:99999999999999999999'"},
      {"serve --listen 8080", "chaintwin serve: --listen: expected HOST:PORT with PORT from 0 to 65535 "
                              "(e.g. 127.0.0.1:8080), got '8080'"},
      {"plan -j 0 p.yaml", "chaintwin plan: -j: expected a whole number from 1 to 1024, got '0'"},
      {"plan --jobs 4294967297 p.yaml", "chaintwin plan: -j: expected a whole number from 1 to 1024, got '4294967297'"},
      {"plan --shard 4/4 --db x.db p.yaml",
       "chaintwin plan: --shard: expected I/N with 0 <= I < N <= 999999999 (e.g. 0/4), or N alone with "
       "JOB_COMPLETION_INDEX set, got '4/4'"},
      {"gui --run 0 --db x.db", "chaintwin gui: --run: expected a whole number from 1 to 9223372036854775807, got '0'"},
      {"gui --speed inf", "chaintwin gui: --speed: expected a number of simulated seconds per wall second greater than 0 "
                          "and at most 1e+12, got 'inf'"},
      {"live --timeout 0", "chaintwin live: --timeout: expected a whole number from 1 to 86400, got '0'"},
      {"live --interval -1", "chaintwin live: --interval: expected a number of seconds greater than 0 and at most 86400, "
                             "got '-1'"},
      {"import openb --nodes n --pods p -o - --horizon 0d",
       "chaintwin import openb: --horizon: expected " + dur + ", longer than 0s, got '0d'"},
      {"snapshot -o x.yaml --run-time 0s", "chaintwin snapshot: --run-time: expected " + dur + ", longer than 0s, got '0s'"},
      // what a command needs, and flags that do not go together
      {"check", "chaintwin check: no SCENARIO given"},
      {"compare a.yaml", "chaintwin compare: no B given"},
      {"import openb --pods p -o -", "chaintwin import openb: --nodes FILE is required"},
      {"snapshot", "chaintwin snapshot: -o SCENARIO.yaml is required"},
      {"plan merge out.db", "chaintwin plan merge: no SHARD given"},
      {"plan", "chaintwin plan: no PLAN given (or --report FILE)"},
      {"derive", "chaintwin derive: no FILE given (or --example)"},
      {"plan --grid --adaptive p.yaml", "chaintwin plan: --grid does not go with --adaptive"},
      {"plan --shard 0/2 p.yaml", "chaintwin plan: --shard needs --db"},
      {"plan --grid merge out.db a.db", "chaintwin plan merge: --grid belongs to chaintwin plan, not to chaintwin plan merge"},
      {"live --dry-run", "chaintwin live: --dry-run needs --apply"},
      {"live --screenshot x.png", "chaintwin live: --screenshot needs --gui"},
      {"serve --client-ca ca.pem", "chaintwin serve: --client-ca needs --tls-cert"},
      {"gui --at 1h", "chaintwin gui: --at needs --screenshot"},
      {"gui --panel plan --screenshot x.png",
       "chaintwin gui: --panel plan belongs to a capacity plan's window, not to a run (give --plan FILE)"},
  };
  for (const auto& r : rows) {
    INFO("chaintwin " << r.args);
    const Outcome o = run(words(r.args));
    CHECK(o.code == 2);
    CHECK(o.out.empty());
    const std::string command = r.err.substr(0, r.err.find(':'));
    CHECK(o.err == r.err + "\n(see " + command + " --help)\n");
  }
}

TEST_CASE("flags that exclude each other are refused whichever comes first", "[cli]") {
  for (const std::string args : {"snapshot -o x.yaml --run-time 1h --no-workloads", "live --gui --once",
                                 "plan --report r.db p.yaml", "derive --example x.yaml", "gui --db r.db --seed 3"}) {
    INFO(args);
    const Outcome o = run(words(args));
    CHECK(o.code == 2);
    CHECK_THAT(o.err, Catch::Contains(" does not go with "));
  }
}

TEST_CASE("chaintwin help CMD prints what chaintwin CMD --help prints, for every command", "[cli]") {
  const auto paths = cli::command_paths();
  CHECK(paths == std::vector<std::string>{"run", "check", "compare", "derive", "import", "import openb", "full-demand",
                                          "explain", "plan", "plan merge", "gui", "serve", "live", "snapshot", "help", "completion"});
  for (const auto& path : paths) {
    INFO(path);
    auto help_args = words(path);
    help_args.insert(help_args.begin(), "help");
    auto flag_args = words(path);
    flag_args.push_back("--help");
    const Outcome help = run(help_args), flag = run(flag_args);
    CHECK(help.code == 0);
    CHECK(flag.code == 0);
    CHECK(help.out == flag.out);
    CHECK(help.out.rfind("Usage: chaintwin " + path + " ", 0) == 0);
    CHECK(help.err.empty());
  }
  const Outcome top = run({"--help"});
  CHECK(top.code == 0);
  CHECK(top.out.rfind("Usage: chaintwin [COMMAND] [OPTIONS]\n", 0) == 0);
  CHECK(run({"help"}).out == top.out);
  CHECK(run({"-h"}).out == top.out);
}

TEST_CASE("the help gives each flag its placeholder, default and the flags it goes with", "[cli]") {
  struct Row {
    std::string command;
    std::string line;
  };
  const Row rows[] = {
      {"run", "  -o, --output text|json  the report's format (default: text)\n"},
      {"run", "  --seed N                override the scenario's seed"},
      {"serve", "  --listen HOST:PORT      where to listen; port 0 picks a free port (default: 127.0.0.1:8080)\n"},
      {"live", "  --dry-run               send the writes with dryRun=All (nothing changes) (with --apply)\n"},
      {"derive", "(Setting objects in the files override it)\n                          (repeatable)\n"},
      {"import openb", "  --nodes FILE            the node list (sn, cpu_milli, memory_mib, gpu, model) (required)\n"},
      {"gui", "  --size WxH              the window's size in pixels (default: 1280x800)\n"},
      {"plan", "Commands:\n  merge "},
      {"snapshot", "  --horizon T             the scenario's horizon (default: 24h)\n"},
  };
  for (const auto& r : rows) {
    INFO(r.command << ": " << r.line);
    auto args = words(r.command);
    args.push_back("--help");
    CHECK_THAT(run(args).out, Catch::Contains(r.line));
  }
}

TEST_CASE("the bash completion offers every command and every flag its help lists", "[cli]") {
  const Outcome script = run({"completion", "bash"});
  REQUIRE(script.code == 0);
  CHECK_THAT(script.out, Catch::Contains("complete -F _chaintwin chaintwin\n"));
  CHECK_THAT(script.out, Catch::Contains("flags=\"-h --help --version\"; words=\"run check compare derive import full-demand explain plan "
                                         "gui serve live snapshot help completion\""));
  for (const auto& path : cli::command_paths()) {
    INFO(path);
    auto args = words(path);
    args.push_back("--help");
    const auto flags = flags_in_help(run(args).out);
    CHECK_FALSE(flags.empty());
    std::string listed = "\n    \"" + path + "\") flags=\"";
    for (size_t i = 0; i < flags.size(); ++i) listed += (i == 0 ? "" : " ") + flags[i];
    CHECK_THAT(script.out, Catch::Contains(listed + "\""));
  }
  // Choices complete to their words, files to files.
  CHECK_THAT(script.out, Catch::Contains("\"run|-o\") COMPREPLY=($(compgen -W \"text json\" -- \"$cur\"))"));
  CHECK_THAT(script.out, Catch::Contains("\"plan|--db\") compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f"));
}

TEST_CASE("chaintwin --version prints the version", "[cli]") {
  const Outcome o = run({"--version"});
  CHECK(o.code == 0);
  CHECK(o.out.rfind("chaintwin 0.", 0) == 0);
}
