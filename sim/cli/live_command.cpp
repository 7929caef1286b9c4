#include "sim/cli/live_command.h"

#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <ctime>
#include <iostream>
#include <optional>
#include <set>

#include "live/api_client.h"
#include "live/cluster_reader.h"
#include "live/cluster_watcher.h"
#include "live/drift.h"
#include "live/kubeconfig.h"
#include "live/plan_applier.h"

namespace chaintwin::cli {
namespace {

constexpr const char* kLiveHelp = R"(Usage: chaintwin live [--kubeconfig FILE] [--context NAME] [--once] [--interval S] [-o table|json]
                      [--qps N] [--burst N] [--timeout S]

Shadow mode: reads the cluster (Nodes, Devices, Namespaces, Settings, InstanceTypes, TopologySources
and Kueue's ResourceFlavors, ClusterQueues, LocalQueues, AdmissionChecks, Topologies, Workloads; Kueue
at v1beta2, or v1beta1 where that is all the cluster serves), runs the operator's controllers on it
to their fixpoint, and prints every write the operator would make and has not: the drift. Nothing is
written to the cluster.

The cluster is found as kubectl finds it: --kubeconfig, else KUBECONFIG (several files, merged),
else ~/.kube/config, else the in-cluster service account; --context picks a context. Bearer
tokens, token files, client certificates (file or data), exec credential plugins
(client.authentication.k8s.io/v1), CA file or data; insecure-skip-tls-verify is honoured with a
warning. Credentials are never printed.

  --once          read once (a list of every kind), print the drift, exit (0 no drift, 1 drift)
                  without --once: list then watch every kind (resourceVersion, bookmarks, 410 →
                  relist, dropped connections → reconnect with backoff and jitter) and print the
                  drift whenever the cluster changes, until SIGINT or SIGTERM; on a terminal the
                  table is redrawn in place, elsewhere each new one is appended
  --interval S    with --apply and without --once: seconds before a refused write is tried again
                  (default 10)
  -o table|json   the drift as a table (default) or as JSON lines
  --qps N, --burst N   client-side rate limit (default 20 and 40)
  --timeout S     per-request timeout (default 30)

  --apply         write the operator's writes to the cluster (fieldManager=chaintwin): creates,
                  merge patches of Node labels and status.capacity, replaces that carry the planned
                  resourceVersion (a 409 Conflict re-reads and plans again), deletes; then read
                  again until no drift is left (giving up after 5 rounds in a row that wrote
                  nothing). 429 (after Retry-After) and 5xx replies are retried with backoff
  --dry-run       with --apply: send the writes with dryRun=All (nothing changes)

  --gui           open the GUI over the live state (chaintwin gui's panels, with the drift
                  marked and listed in its own tab); closes with the window
  --screenshot F  with --gui: write the first view of the cluster (the Drift tab) to the PNG F and
                  exit (needs an X display; headless: xvfb-run -a)
Exit codes: 0 no drift (with --apply: none left), 1 drift, 2 bad input (flags, kubeconfig),
3 the cluster cannot be read.
)";

struct LiveOptions {
  std::optional<std::string> kubeconfig, context, screenshot;
  bool once = false, json = false, help = false, apply = false, dry_run = false, gui = false;
  bool redraw = false;  // the watch loop's table redrawn in place (standard output is a terminal)
  double interval = 10;
  live::ClientOptions client;
};

std::optional<double> positive(const std::optional<std::string>& v) {
  if (!v) return std::nullopt;
  char* end = nullptr;
  const double d = std::strtod(v->c_str(), &end);
  if (end == v->c_str() || *end != '\0' || !(d > 0)) return std::nullopt;
  return d;
}

std::string parse(const std::vector<std::string>& args, LiveOptions& o) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> std::optional<std::string> {
      if (i + 1 >= args.size()) return std::nullopt;
      return args[++i];
    };
    if (a == "-h" || a == "--help") {
      o.help = true;
    } else if (a == "--kubeconfig") {
      o.kubeconfig = value();
      if (!o.kubeconfig || o.kubeconfig->empty()) return "--kubeconfig needs a file";
    } else if (a == "--context") {
      o.context = value();
      if (!o.context || o.context->empty()) return "--context needs a name";
    } else if (a == "--once") {
      o.once = true;
    } else if (a == "--interval") {
      const auto d = positive(value());
      if (!d) return "--interval needs a positive number of seconds";
      o.interval = *d;
    } else if (a == "-o" || a == "--output") {
      const auto v = value();
      if (!v || (*v != "table" && *v != "json")) return "-o takes table or json";
      o.json = *v == "json";
    } else if (a == "--qps") {
      const auto d = positive(value());
      if (!d) return "--qps needs a positive number";
      o.client.qps = *d;
    } else if (a == "--burst") {
      const auto d = positive(value());
      if (!d || *d != static_cast<int>(*d)) return "--burst needs a positive whole number";
      o.client.burst = static_cast<int>(*d);
    } else if (a == "--timeout") {
      const auto d = positive(value());
      if (!d) return "--timeout needs a positive number of seconds";
      o.client.timeout_seconds = static_cast<long>(*d);
    } else if (a == "--apply") {
      o.apply = true;
    } else if (a == "--dry-run") {
      o.dry_run = true;
    } else if (a == "--gui") {
      o.gui = true;
    } else if (a == "--screenshot") {
      o.screenshot = value();
      if (!o.screenshot || o.screenshot->empty()) return "--screenshot needs a PNG file name";
    } else {
      return "unknown argument '" + a + "'";
    }
  }
  if (o.dry_run && !o.apply) return "--dry-run goes with --apply";
  if (o.gui && (o.once || o.apply || o.json)) return "--gui shows the drift in a window; it goes with neither --once, --apply nor -o";
  if (o.screenshot && !o.gui) return "--screenshot goes with --gui";
  return "";
}

// The drift as printed: a header and the table, or JSON lines.
std::string drift_text(const LiveOptions& o, const live::ApiClient& client, const live::ObservedCluster& observed,
                       const std::vector<live::DriftRow>& rows) {
  std::string text;
  if (o.json) {
    for (const auto& r : rows) text += live::drift_json(r).dump() + "\n";
    return text;
  }
  int admitted = 0, checking = 0, pending = 0, finished = 0;
  for (const auto& [key, w] : observed.workloads.workloads) {
    if (w.finished()) ++finished;
    else if (w.admitted()) ++admitted;
    else if (w.quota_reserved()) ++checking;
    else ++pending;
  }
  return "# " + client.connection().server + " (context " + client.connection().context + "), " +
         std::to_string(observed.objects) + " objects at resourceVersion " + observed.resource_version +
         "; Workloads: " + std::to_string(admitted) + " admitted, " + std::to_string(checking) +
         " waiting for admission checks, " + std::to_string(pending) + " pending, " + std::to_string(finished) +
         " finished\n" + live::drift_table(rows);
}

// What the cluster does not serve, and the objects set aside (said once, at the start).
void report_unread(const live::ObservedCluster& observed, std::ostream& err) {
  for (const auto& m : observed.missing) err << "chaintwin live: not served: " << m << "\n";
  for (const auto& w : observed.left_out) err << "chaintwin live: not read: " << w << "\n";
}

void report_apply(const LiveOptions& o, const live::ApplyReport& applied, size_t planned, std::ostream& err) {
  err << "chaintwin live: " << (o.dry_run ? "dry run: the cluster accepted " : "applied ") << applied.sent << " of "
      << planned << " write(s)" << (applied.stopped.empty() ? "" : "; stopped: " + applied.stopped)
      << (applied.conflict ? " (re-reading the cluster to plan again)" : "") << "\n";
}

// Prints the drift of `observed` when it differs from the last printed; applies it with --apply.
// `drift` holds the last one computed: when only Workloads changed (which no controller of the
// operator reads) it is printed again with the new counts, and neither computed nor applied again.
void report_drift(const LiveOptions& o, live::ApiClient& client, const live::ObservedCluster& observed,
                  bool only_workloads, std::optional<live::Drift>& drift, std::string& last, std::ostream& out,
                  std::ostream& err) {
  const bool reuse = only_workloads && drift.has_value();
  if (!reuse) {
    auto computed = live::compute_drift(observed.state, live::wall_clock_rfc3339());
    if (!computed.ok()) {
      err << "chaintwin live: " << computed.error() << "\n";
      drift.reset();
      return;
    }
    drift = std::move(*computed);
  }
  const std::string text = drift_text(o, client, observed, drift->rows);
  if (text != last && o.redraw) {
    // Home, clear the screen, the table, and when it was drawn.
    out << "\033[H\033[2J" << text << "\n(watching; drawn at " << live::wall_clock_rfc3339() << "; Ctrl-C stops)\n"
        << std::flush;
  } else if (text != last) {
    out << text << std::flush;
  }
  last = text;
  if (o.apply && !reuse && !drift->rows.empty())
    report_apply(o, live::apply_writes(client, observed, drift->writes, o.dry_run), drift->writes.size(), err);
}

// Without --once: list-then-watch every kind (cluster_watcher.h) and report the drift whenever the
// cluster changes, until SIGINT or SIGTERM.
int watch_loop(const LiveOptions& o, live::ApiClient& client, const sigset_t& signals, std::ostream& out, std::ostream& err) {
  live::ClusterWatcher watcher(client.connection(), o.client);
  if (auto s = watcher.start(); !s.ok()) {
    err << "chaintwin live: " << client.connection().server << ": " << s.error() << "\n";
    return 3;
  }
  std::string last;
  std::optional<live::Drift> drift;
  bool reported = false;
  auto since_report = std::chrono::steady_clock::now();
  while (true) {
    timespec poll{0, 0};
    const int sig = sigtimedwait(&signals, nullptr, &poll);
    if (sig == SIGINT || sig == SIGTERM) break;
    // Every kind's first list is queued before the kind counts as synced: a drain after seeing
    // synced() holds them all.
    const bool synced = watcher.synced();
    // Let a burst of events settle, for at most 2 s.
    const std::set<std::string> changed = watcher.settle(std::chrono::milliseconds(300), std::chrono::milliseconds(150),
                                                         std::chrono::seconds(2));
    if (!synced) continue;
    // Report on a change; with --apply also look again now and then (a refused write changes nothing).
    const bool retry = o.apply && std::chrono::steady_clock::now() - since_report > std::chrono::duration<double>(o.interval);
    if (reported && changed.empty() && !retry) continue;
    const bool only_workloads = reported && !retry && changed == std::set<std::string>{"Workload"};
    auto observed = watcher.observed();
    if (!observed.ok()) {
      err << "chaintwin live: " << observed.error() << "\n";
      continue;
    }
    if (!reported)
      report_unread(*observed, err);
    report_drift(o, client, *observed, only_workloads, drift, last, out, err);
    reported = true;
    since_report = std::chrono::steady_clock::now();
  }
  err << "chaintwin live: stopped; the watches relisted " << watcher.relists() << " time(s) and reconnected "
      << watcher.reconnects() << " time(s)\n";
  return 0;
}

// --once: read, report, and with --apply write and read again until no drift is left, giving up
// after kMaxRounds rounds in a row that wrote nothing. 0 no drift (left), 1 drift, 3 unreadable.
int once(const LiveOptions& o, live::ApiClient& client, std::ostream& out, std::ostream& err) {
  constexpr int kMaxRounds = 5;
  std::string last;
  for (int stalled = 0;;) {
    auto observed = live::read_cluster(client);
    if (!observed.ok()) {
      err << "chaintwin live: " << client.connection().server << ": " << observed.error() << "\n";
      return 3;
    }
    if (last.empty())
      report_unread(*observed, err);
    auto drift = live::compute_drift(observed->state, live::wall_clock_rfc3339());
    if (!drift.ok()) {
      err << "chaintwin live: " << drift.error() << "\n";
      return 3;
    }
    const std::string text = drift_text(o, client, *observed, drift->rows);
    if (text != last) out << text << std::flush;
    last = text;
    if (!o.apply || drift->rows.empty()) return drift->rows.empty() ? 0 : 1;
    const live::ApplyReport applied = live::apply_writes(client, *observed, drift->writes, o.dry_run);
    report_apply(o, applied, drift->writes.size(), err);
    if (o.dry_run) return 1;
    stalled = applied.sent > 0 ? 0 : stalled + 1;
    if (!applied.conflict && applied.sent == 0) return 1;  // refused for good: the drift stays
    if (stalled >= kMaxRounds) return 1;
  }
}

}  // namespace

int live_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const LiveGuiRunner& gui) {
  LiveOptions o;
  if (const std::string e = parse(args, o); !e.empty()) {
    err << "chaintwin live: " << e << "\n(see chaintwin live --help)\n";
    return 2;
  }
  if (o.help) {
    out << kLiveHelp;
    return 0;
  }
  o.redraw = !o.once && !o.json && &out == &std::cout && isatty(STDOUT_FILENO) == 1;
  const live::KubeconfigRequest request = live::request_from_environment(o.kubeconfig, o.context);
  auto connection = live::resolve_connection(request);
  if (!connection.ok()) {
    err << "chaintwin live: " << connection.error() << "\n";
    return 2;
  }
  if (connection->insecure_skip_tls_verify)
    err << "chaintwin live: warning: insecure-skip-tls-verify is set for " << connection->server
        << ": the server's certificate is not checked\n";
  if (o.gui) {
    if (!gui) {
      err << "chaintwin live: --gui: this build has no GUI\n";
      return 2;
    }
    return gui(*connection, o.client, o.screenshot, out, err);
  }
  auto client = live::ApiClient::create(*connection, o.client);
  if (!client.ok()) {
    err << "chaintwin live: " << client.error() << "\n";
    return 2;
  }
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  if (!o.once) pthread_sigmask(SIG_BLOCK, &signals, nullptr);  // before any thread starts
  if (!o.once) return watch_loop(o, **client, signals, out, err);
  return once(o, **client, out, err);
}

}  // namespace chaintwin::cli
