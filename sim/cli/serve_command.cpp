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

// `--role TOKEN=FILE`: the ClusterRole read from FILE, or why not.
model::Result<live::ClusterRole> read_role(const std::string& file) {
  auto docs = sim::load_kubernetes_objects(file);
  if (!docs.ok()) return model::err(docs.error());
  if (docs->size() != 1)
    return model::err(file + ": expected one ClusterRole, found " + std::to_string(docs->size()) + " documents");
  auto role = live::decode_cluster_role(docs->front().object);
  if (!role.ok()) return model::err(file + ": " + role.error());
  return std::move(role).value();
}

// The faults to inject: each named probability in its slot.
live::ServerFaults server_faults(const ServeCommandOptions& o) {
  live::ServerFaults f;
  f.seed = o.fault_seed;
  for (const auto& [name, p] : o.faults) {
    double* slot = name == "conflict" ? &f.conflict : name == "error" ? &f.error : name == "throttle" ? &f.throttle
                 : name == "slow" ? &f.slow : name == "gone" ? &f.gone : name == "drop" ? &f.drop : nullptr;
    if (slot != nullptr) *slot = p;
  }
  return f;
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

int serve_command(const ServeCommandOptions& o, std::ostream& out, std::ostream& err) {
  for (const std::string* f : {&o.tls_cert, &o.tls_key, &o.client_ca})
    if (!f->empty() && !std::filesystem::is_regular_file(*f)) {
      err << "chaintwin serve: " << *f << ": no such file\n";
      return 2;
    }
  std::vector<std::pair<std::string, live::ClusterRole>> roles;
  for (const auto& [token, file] : o.roles) {
    auto role = read_role(file);
    if (!role.ok()) {
      err << "chaintwin serve: --role: " << role.error() << "\n";
      return 2;
    }
    roles.emplace_back(token, std::move(role).value());
  }
  const live::ServerFaults faults = server_faults(o);
  const live::ServerTls tls{o.tls_cert, o.tls_key, o.client_ca};
  // The server (and its certificates) first, so a bad file is said before the simulation runs; its
  // threads start only in listen(), after the signal mask below.
  const bool https = !tls.cert_file.empty();
  live::KubeApiServer server(https ? &tls : nullptr);
  if (!server.ok()) {
    const bool ca = !tls.client_ca_file.empty();
    err << "chaintwin serve: " << tls.cert_file << ", " << tls.key_file << (ca ? ", " + tls.client_ca_file : "")
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
  for (auto& [token, role] : roles) server.add_role(token, std::move(role));
  server.set_writable(!o.play);
  server.set_faults(faults);
  server.set_kueue_version(o.kueue_version);
  server.publish(settled(simulation), &simulation.workloads());
  const auto port = server.listen(o.listen.host, o.listen.port);
  if (!port.ok()) {
    err << "chaintwin serve: " << port.error() << "\n";
    return 1;
  }
  out << "serving " << name << " at " << o.at.to_string() << " on " << (https ? "https" : "http") << "://" << o.listen.host << ":" << *port << std::endl;
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
  if (faults.any()) out << "injected faults: " << server.fault_counts() << std::endl;
  return 0;
}

}  // namespace chaintwin::cli
