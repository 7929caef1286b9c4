#include "sim/cli/serve_command.h"

#include <signal.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <sstream>
#include <optional>

#include "live/kube_api_server.h"
#include "sim/kube_documents.h"
#include "sim/runner/chain_sync.h"
#include "sim/runner/simulation.h"
#include "sim/scenario/scenario_loader.h"

namespace chaintwin::cli {
namespace {

constexpr const char* kServeHelp = R"(Usage: chaintwin serve [SCENARIO] [--listen HOST:PORT] [--at T] [--play] [--speed S] [--faults NAME=P,...]
                       [--kueue-version v1beta2|v1beta1] [--tls-cert FILE --tls-key FILE [--client-ca FILE]]
                       [--token TOKEN] [--role TOKEN=CLUSTERROLE.yaml ...]

Simulates SCENARIO (the embedded default scenario when none is given) and serves its cluster as a
Kubernetes API on HOST:PORT (default 127.0.0.1:8080; port 0 picks a free port): /version,
discovery, get, list and watch of Nodes, Devices, Namespaces, Settings, InstanceTypes,
TopologySources, ResourceFlavors, ClusterQueues, LocalQueues, AdmissionChecks, Topologies and
Workloads, with Table replies, so

  kubectl --server http://127.0.0.1:8080 get instancetypes,clusterqueues

prints useful columns. Frozen at T it is writable like an API server (create, replace, merge patch,
delete, the status subresource, 409 on a stale resourceVersion, dryRun=All), so `kubectl apply` and
`chaintwin live --apply` can change it; with --play the simulation owns it and writes get 405.

  --listen HOST:PORT  where to listen
  --at T              the simulated time to serve (default 0: the cluster the operator settles)
  --play              advance the simulation with the wall clock after T, publishing every second
  --speed S           simulated seconds per wall second with --play (default 60)
  --faults NAME=P,... inject faults for client tests, each with probability P per request:
                      conflict (409 on a write), error (500 on a write), throttle (429 with
                      Retry-After: 1), slow (a 0.5 s delay), gone (410 on a watch from a
                      resourceVersion), drop (a watch stream closed after its first events);
                      nothing is stored by a refused write
  --fault-seed N      the faults' random seed (default 1)
  --kueue-version V   serve Kueue's group at V only: v1beta2 (default) or v1beta1, as a cluster
                      with Kueue up to v0.14 does (objects converted both ways at the edge)
  --tls-cert FILE, --tls-key FILE
                      serve HTTPS with this certificate and key (PEM)
  --client-ca FILE    with TLS: require a client certificate signed by this CA (PEM)
  --token TOKEN       require `Authorization: Bearer TOKEN` on every request but the health checks
                      (401 otherwise)
  --role TOKEN=FILE   a request bearing TOKEN may do only what the ClusterRole in FILE allows (403
                      otherwise), as RBAC would for a user bound to it; repeatable. Requests with
                      no such token are not restricted

Prints `serving SCENARIO at T on http://HOST:PORT` once it listens; stops on SIGINT or SIGTERM.
Exit codes: 0 stopped by a signal, 1 it cannot listen, 2 bad input.
)";

struct ServeOptions {
  live::ServerFaults faults;
  std::string scenario;
  std::string host = "127.0.0.1";
  int port = 8080;
  sim::SimTime at;
  bool play = false;
  double speed = 60;
  bool help = false;
  std::string kueue_version = "v1beta2";
  live::ServerTls tls;
  std::string token;
  std::vector<std::pair<std::string, live::ClusterRole>> roles;  // token, role
};

// `--role TOKEN=FILE`: the ClusterRole read from FILE, or why not.
std::string read_role(const std::string& spec, ServeOptions& o) {
  const size_t eq = spec.find('=');
  if (eq == 0 || eq == std::string::npos || eq + 1 == spec.size()) return "--role takes TOKEN=CLUSTERROLE.yaml";
  const std::string file = spec.substr(eq + 1);
  auto docs = sim::load_kubernetes_objects(file);
  if (!docs.ok()) return "--role: " + docs.error();
  if (docs->size() != 1) return "--role: " + file + ": expected one ClusterRole, found " + std::to_string(docs->size()) + " documents";
  auto role = live::decode_cluster_role(docs->front().object);
  if (!role.ok()) return "--role: " + file + ": " + role.error();
  o.roles.emplace_back(spec.substr(0, eq), std::move(*role));
  return "";
}

std::string parse(const std::vector<std::string>& args, ServeOptions& o) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> std::optional<std::string> {
      if (i + 1 >= args.size()) return std::nullopt;
      return args[++i];
    };
    if (a == "-h" || a == "--help") {
      o.help = true;
    } else if (a == "--listen") {
      const auto v = value();
      const size_t colon = v ? v->rfind(':') : std::string::npos;
      if (!v || colon == std::string::npos || colon == 0 || colon + 1 == v->size() ||
          v->find_first_not_of("0123456789", colon + 1) != std::string::npos)
        return "--listen takes HOST:PORT (e.g. 127.0.0.1:8080)";
      o.host = v->substr(0, colon);
      const long port = std::stol(v->substr(colon + 1));
      if (port < 0 || port > 65535) return "--listen: port " + std::to_string(port) + " is not in 0..65535";
      o.port = static_cast<int>(port);
    } else if (a == "--at") {
      const auto v = value();
      if (!v) return "--at needs a time (e.g. 6h)";
      auto t = sim::SimTime::parse(*v);
      if (!t.ok()) return "--at: " + t.error();
      o.at = *t;
    } else if (a == "--faults") {
      const auto v = value();
      if (!v) return "--faults needs NAME=P[,NAME=P...] (conflict, error, throttle, slow, gone, drop)";
      std::stringstream ss(*v);
      std::string item;
      while (std::getline(ss, item, ',')) {
        const size_t eq = item.find('=');
        const std::string name = item.substr(0, eq);
        char* end = nullptr;
        const double p = eq == std::string::npos ? -1 : std::strtod(item.c_str() + eq + 1, &end);
        if (eq == std::string::npos || end == item.c_str() + eq + 1 || *end != '\0' || p < 0 || p > 1)
          return "--faults: '" + item + "': expected NAME=P with P in [0, 1]";
        double* slot = name == "conflict" ? &o.faults.conflict : name == "error" ? &o.faults.error
                     : name == "throttle" ? &o.faults.throttle : name == "slow" ? &o.faults.slow
                     : name == "gone" ? &o.faults.gone : name == "drop" ? &o.faults.drop : nullptr;
        if (slot == nullptr) return "--faults: unknown fault '" + name + "' (conflict, error, throttle, slow, gone, drop)";
        *slot = p;
      }
    } else if (a == "--fault-seed") {
      const auto v = value();
      if (!v || v->empty() || v->find_first_not_of("0123456789") != std::string::npos) return "--fault-seed needs a whole number";
      o.faults.seed = std::stoull(*v);
    } else if (a == "--tls-cert" || a == "--tls-key" || a == "--client-ca" || a == "--token") {
      const auto v = value();
      if (!v || v->empty()) return a + " needs a value";
      (a == "--tls-cert" ? o.tls.cert_file : a == "--tls-key" ? o.tls.key_file : a == "--client-ca" ? o.tls.client_ca_file : o.token) = *v;
    } else if (a == "--role") {
      const auto v = value();
      if (const std::string e = read_role(v.value_or(""), o); !e.empty()) return e;
    } else if (a == "--kueue-version") {
      const auto v = value();
      if (!v || (*v != "v1beta2" && *v != "v1beta1")) return "--kueue-version takes v1beta2 or v1beta1";
      o.kueue_version = *v;
    } else if (a == "--play") {
      o.play = true;
    } else if (a == "--speed") {
      const auto v = value();
      char* end = nullptr;
      const double s = v ? std::strtod(v->c_str(), &end) : 0;
      if (!v || end == v->c_str() || *end != '\0' || !(s > 0)) return "--speed needs a positive number";
      o.speed = s;
    } else if (!a.empty() && a[0] == '-') {
      return "unknown flag '" + a + "'";
    } else if (o.scenario.empty()) {
      o.scenario = a;
    } else {
      return "one SCENARIO at a time (got '" + o.scenario + "' and '" + a + "')";
    }
  }
  if (o.tls.cert_file.empty() != o.tls.key_file.empty()) return "--tls-cert and --tls-key go together";
  if (!o.tls.client_ca_file.empty() && o.tls.cert_file.empty()) return "--client-ca needs --tls-cert and --tls-key";
  for (const std::string* f : {&o.tls.cert_file, &o.tls.key_file, &o.tls.client_ca_file})
    if (!f->empty() && !std::filesystem::is_regular_file(*f)) return *f + ": no such file";
  return "";
}

// The cluster as the operator would have it at the simulation's now: the InstanceType statuses the
// simulator refreshes lazily are settled on a copy.
model::ClusterState settled(const sim::Simulation& s) {
  model::ClusterState copy = s.cluster();
  if (!sim::sync_chain(copy, {}, s.now(), /*stage3=*/false).ok()) return s.cluster();
  return copy;
}

void step_to(sim::Simulation& s, sim::SimTime at) {
  while (const auto next = s.next_event_at()) {
    if (*next > at || !s.step()) break;
  }
}

}  // namespace

int serve_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  ServeOptions o;
  if (const std::string e = parse(args, o); !e.empty()) {
    err << "chaintwin serve: " << e << "\n(see chaintwin serve --help)\n";
    return 2;
  }
  if (o.help) {
    out << kServeHelp;
    return 0;
  }
  // The server (and its certificates) first, so a bad file is said before the simulation runs; its
  // threads start only in listen(), after the signal mask below.
  const bool https = !o.tls.cert_file.empty();
  live::KubeApiServer server(https ? &o.tls : nullptr);
  if (!server.ok()) {
    const bool ca = !o.tls.client_ca_file.empty();
    err << "chaintwin serve: " << o.tls.cert_file << ", " << o.tls.key_file << (ca ? ", " + o.tls.client_ca_file : "")
        << ": expected a PEM certificate and its private key" << (ca ? ", and a PEM CA certificate" : "") << "\n";
    return 2;
  }
  auto scenario = sim::load_scenario_or_default(o.scenario);
  if (!scenario.ok()) {
    err << "chaintwin serve: " << scenario.error() << "\n";
    return 2;
  }
  if (o.at > scenario->horizon) {
    err << "chaintwin serve: --at " << o.at.to_string() << " is after the scenario's horizon "
        << scenario->horizon.to_string() << "\n";
    return 2;
  }
  const std::string name = scenario->name;
  sim::RunOptions run;
  run.keep_events = false;
  sim::Simulation simulation(std::move(scenario).value(), run);
  if (auto s = simulation.start(); !s.ok()) {
    err << "chaintwin serve: the scenario does not start: " << s.error() << "\n";
    return 2;
  }
  step_to(simulation, o.at);
  // SIGINT and SIGTERM are taken by sigtimedwait below, not by a handler: block them before the
  // server's threads start, so every thread inherits the mask.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  server.set_required_token(o.token);
  for (auto& [token, role] : o.roles) server.add_role(token, std::move(role));
  server.set_writable(!o.play);
  server.set_faults(o.faults);
  server.set_kueue_version(o.kueue_version);
  server.publish(settled(simulation), &simulation.workloads());
  const auto port = server.listen(o.host, o.port);
  if (!port.ok()) {
    err << "chaintwin serve: " << port.error() << "\n";
    return 1;
  }
  out << "serving " << name << " at " << o.at.to_string() << " on " << (https ? "https" : "http") << "://" << o.host << ":" << *port << std::endl;
  sim::SimTime shown = o.at;
  auto last = std::chrono::steady_clock::now();
  while (true) {
    timespec wait{1, 0};
    const int sig = sigtimedwait(&signals, nullptr, &wait);
    if (sig == SIGINT || sig == SIGTERM) break;
    if (!o.play || !simulation.next_event_at()) continue;
    const auto now = std::chrono::steady_clock::now();
    const double wall = std::chrono::duration<double>(now - last).count();
    last = now;
    shown = sim::SimTime::micros(std::min(simulation.end().us(), shown.us() + static_cast<int64_t>(wall * o.speed * 1e6)));
    step_to(simulation, shown);
    if (!simulation.fatal().empty()) {
      err << "chaintwin serve: the run stopped: " << simulation.fatal() << "\n";
      break;
    }
    server.publish(settled(simulation), &simulation.workloads());
  }
  server.stop();
  out << "stopped after " << server.requests() << " requests, " << server.writes() << " writes" << std::endl;
  if (o.faults.any()) out << "injected faults: " << server.fault_counts() << std::endl;
  return 0;
}

}  // namespace chaintwin::cli
