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
#include "sim/cli/gui/gui_command.h"

namespace chaintwin::cli {
namespace {

// The options and what follows from them.
struct LiveOptions {
  const LiveCommandOptions& cli;
  bool json = false;
  bool redraw = false;  // the watch loop's table redrawn in place (standard output is a terminal)
};

// The drift as printed: a header and the table, or JSON lines.
std::string drift_text(const LiveOptions& o, const live::ApiClient& client, const live::ObservedCluster& observed,
                       const std::vector<live::DriftRow>& rows) {
  std::string text;
  if (o.json) {
    for (const auto& r : rows) text += live::drift_json(r).dump() + "\n";
    return text;
  }
  int admitted = 0, checking = 0, pending = 0, finished = 0;
  observed.workloads.workloads.each_unordered([&](const std::string&, const model::Workload& w) {  // counts
    if (w.finished()) ++finished;
    else if (w.admitted()) ++admitted;
    else if (w.quota_reserved()) ++checking;
    else ++pending;
  });
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
  err << "chaintwin live: " << (o.cli.dry_run ? "dry run: the cluster accepted " : "applied ") << applied.sent << " of "
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
  if (o.cli.apply && !reuse && !drift->rows.empty())
    report_apply(o, live::apply_writes(client, observed, drift->writes, o.cli.dry_run), drift->writes.size(), err);
}

// Without --once: list-then-watch every kind (cluster_watcher.h) and report the drift whenever the
// cluster changes, until SIGINT or SIGTERM.
int watch_loop(const LiveOptions& o, live::ApiClient& client, const sigset_t& signals, std::ostream& out, std::ostream& err) {
  live::ClusterWatcher watcher(client.connection(), o.cli.client);
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
    const bool retry = o.cli.apply && std::chrono::steady_clock::now() - since_report > std::chrono::duration<double>(o.cli.interval);
    if (reported && changed.empty() && !retry) continue;
    const bool only_workloads = reported && !retry && changed == std::set<std::string>{"Workload"};
    for (const auto& failure : watcher.take_failures()) err << "chaintwin live: " << failure << "\n";
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
    if (!o.cli.apply || drift->rows.empty()) return drift->rows.empty() ? 0 : 1;
    const live::ApplyReport applied = live::apply_writes(client, *observed, drift->writes, o.cli.dry_run);
    report_apply(o, applied, drift->writes.size(), err);
    if (o.cli.dry_run) return 1;
    stalled = applied.sent > 0 ? 0 : stalled + 1;
    if (!applied.conflict && applied.sent == 0) return 1;  // refused for good: the drift stays
    if (stalled >= kMaxRounds) return 1;
  }
}

}  // namespace

int live_command(const LiveCommandOptions& cli, std::ostream& out, std::ostream& err) {
  LiveOptions o{cli, cli.output == "json", false};
  o.redraw = !cli.once && !o.json && &out == &std::cout && isatty(STDOUT_FILENO) == 1;
  const live::KubeconfigRequest request = live::request_from_environment(cli.kubeconfig, cli.context);
  auto connection = live::resolve_connection(request);
  if (!connection.ok()) {
    err << "chaintwin live: " << connection.error() << "\n";
    return 2;
  }
  if (connection->insecure_skip_tls_verify)
    err << "chaintwin live: warning: insecure-skip-tls-verify is set for " << connection->server
        << ": the server's certificate is not checked\n";
  if (cli.gui) return live_gui(*connection, cli.client, cli.screenshot, out, err);
  auto client = live::ApiClient::create(*connection, cli.client);
  if (!client.ok()) {
    err << "chaintwin live: " << client.error() << "\n";
    return 2;
  }
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  if (!cli.once) pthread_sigmask(SIG_BLOCK, &signals, nullptr);  // before any thread starts
  if (!cli.once) return watch_loop(o, **client, signals, out, err);
  return once(o, **client, out, err);
}

}  // namespace chaintwin::cli
