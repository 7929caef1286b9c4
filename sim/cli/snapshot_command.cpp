#include "sim/cli/snapshot_command.h"

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <optional>

#include <nlohmann/json.hpp>

#include "live/api_client.h"
#include "live/cluster_reader.h"
#include "live/kubeconfig.h"
#include "live/workload_capture.h"
#include "model/device_inventory.h"
#include "model/devices_codec.h"
#include "sim/scenario/scenario_loader.h"
#include "sim/sim_time.h"
#include "sim/yaml_writer.h"

namespace chaintwin::cli {
namespace {

constexpr const char* kSnapshotHelp = R"(Usage: chaintwin snapshot -o SCENARIO.yaml [--kubeconfig FILE] [--context NAME] [--name NAME] [--horizon T]
                          [--run-time T | --no-workloads]

Reads the cluster (found as `chaintwin live` finds it) and writes a scenario whose cluster.objects
are its Nodes, Devices, Namespaces, Settings, InstanceTypes, TopologySources and Kueue
ResourceFlavors, ClusterQueues, LocalQueues, AdmissionChecks and Topologies as they are now
(server-set fields dropped), so `chaintwin run SCENARIO.yaml` continues from the real present:
add workloads and timeline entries to ask what-if questions. The file is checked by loading it
back before it is written; nothing is written when that fails.

Workloads in flight (Kueue Workloads not Finished) become the scenario's first workloads, one
generator each, named after the Workload, with its namespace, priority, PodSets and their
containers' requests, on the InstanceType its LocalQueue fronts. They arrive 1 ms apart from 0s:
first those holding quota now, then the pending ones, each group in creation order, so the
simulated Kueue admits them again in that order. Their cards are freed in the Devices ledgers (the
twin places them again; a cluster's Pods are not read), and each runs --run-time once admitted.

  -o FILE          the scenario to write (required)
  --name NAME      metadata.name (default: snapshot)
  --horizon T      the scenario's horizon (default 24h)
  --run-time T     how long each captured Workload runs once admitted (default: the horizon)
  --no-workloads   capture no Workload: the ledgers keep the cards in use for the whole run

Exit codes: 0 written, 2 bad input, 3 the cluster cannot be read.
)";

// What an API server adds that a scenario must not carry.
void drop_server_fields(nlohmann::json& o) {
  auto& meta = o["metadata"];
  for (const char* f : {"resourceVersion", "uid", "managedFields", "generation", "creationTimestamp", "selfLink"}) meta.erase(f);
  if (meta.contains("annotations")) {
    meta["annotations"].erase("kubectl.kubernetes.io/last-applied-configuration");
    if (meta["annotations"].empty()) meta.erase("annotations");
  }
}

// The cluster's objects as a scenario's cluster.objects: without server-set fields, without
// Workloads (captured as generators), without ClusterQueue statuses (Kueue's account of the
// Workloads it holds, which the simulated Kueue builds again), and with every Devices ledger freed
// when captured Workloads holding quota are to be placed again (`free_cards`).
nlohmann::ordered_json scenario_objects(const live::ObservedCluster& observed, bool free_cards) {
  nlohmann::ordered_json objects = nlohmann::ordered_json::array();
  for (auto o : observed.raw) {
    const std::string kind = o.value("kind", "");
    if (kind == "Workload") continue;
    drop_server_fields(o);
    if (kind == "ClusterQueue") o.erase("status");
    const auto devices = kind == "Devices" && free_cards ? observed.state.devices.find(o["metadata"].value("name", ""))
                                                        : observed.state.devices.end();
    if (devices != observed.state.devices.end()) {
      const nlohmann::json freed = model::encode_devices(model::with_free_ledger(devices->second));
      if (freed.contains("status")) o["status"] = freed["status"];
    }
    objects.push_back(nlohmann::ordered_json::parse(o.dump()));
  }
  return objects;
}

}  // namespace

int snapshot_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  std::optional<std::string> kubeconfig, context, output;
  std::string name = "snapshot", horizon = "24h";
  std::optional<std::string> run_time;
  bool with_workloads = true;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> std::optional<std::string> {
      if (i + 1 >= args.size()) return std::nullopt;
      return args[++i];
    };
    std::optional<std::string>* slot = a == "-o" || a == "--output" ? &output
                                     : a == "--kubeconfig"         ? &kubeconfig
                                     : a == "--context"            ? &context
                                                                   : nullptr;
    if (a == "-h" || a == "--help") {
      out << kSnapshotHelp;
      return 0;
    } else if (slot != nullptr) {
      *slot = value();
      if (!*slot || (*slot)->empty()) {
        err << "chaintwin snapshot: " << a << " needs a value\n";
        return 2;
      }
    } else if (a == "--name" || a == "--horizon" || a == "--run-time") {
      const auto v = value();
      if (!v || v->empty()) {
        err << "chaintwin snapshot: " << a << " needs a value\n";
        return 2;
      }
      if (a == "--run-time") run_time = *v;
      else (a == "--name" ? name : horizon) = *v;
    } else if (a == "--no-workloads") {
      with_workloads = false;
    } else {
      err << "chaintwin snapshot: unknown argument '" << a << "'\n(see chaintwin snapshot --help)\n";
      return 2;
    }
  }
  if (!output) {
    err << "chaintwin snapshot: -o SCENARIO.yaml is required\n";
    return 2;
  }
  if (auto h = sim::SimTime::parse(horizon); !h.ok()) {
    err << "chaintwin snapshot: --horizon: " << h.error() << "\n";
    return 2;
  }
  if (run_time && !with_workloads) {
    err << "chaintwin snapshot: --run-time is for captured Workloads; it does not go with --no-workloads\n";
    return 2;
  }
  if (run_time) {
    auto t = sim::SimTime::parse(*run_time);
    if (!t.ok() || t->us() <= 0) {
      err << "chaintwin snapshot: --run-time: " << (t.ok() ? "must be longer than 0s" : t.error()) << "\n";
      return 2;
    }
  }
  const live::KubeconfigRequest request = live::request_from_environment(kubeconfig, context);
  auto connection = live::resolve_connection(request);
  if (!connection.ok()) {
    err << "chaintwin snapshot: " << connection.error() << "\n";
    return 2;
  }
  auto client = live::ApiClient::create(*connection, {});
  if (!client.ok()) {
    err << "chaintwin snapshot: " << client.error() << "\n";
    return 2;
  }
  auto observed = live::read_cluster(**client);
  if (!observed.ok()) {
    err << "chaintwin snapshot: " << connection->server << ": " << observed.error() << "\n";
    return 3;
  }
  for (const auto& m : observed->missing) err << "chaintwin snapshot: not served: " << m << "\n";
  for (const auto& w : observed->left_out) err << "chaintwin snapshot: left out (not read): " << w << "\n";
  live::CapturedWorkloads captured;
  if (with_workloads) captured = live::capture_workloads(observed->state, observed->workloads, run_time.value_or(horizon));
  for (const auto& why : captured.left_out) err << "chaintwin snapshot: Workload left out: " << why << "\n";
  const bool free_cards = captured.holding > 0;
  nlohmann::ordered_json scenario;
  scenario["apiVersion"] = "chaintwin/v1";
  scenario["kind"] = "Scenario";
  const std::time_t now = std::time(nullptr);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  const std::string in_flight =
      !with_workloads ? " Workloads in flight are not captured (--no-workloads): the Devices ledgers keep their cards."
                      : " " + std::to_string(captured.generators.size()) + " Workloads in flight (" +
                            std::to_string(captured.holding) + " holding quota, " + std::to_string(captured.pending) +
                            " pending) arrive from 0s" + (free_cards ? "; the Devices ledgers are freed for them." : ".");
  scenario["metadata"] = {{"name", name},
                          {"description", "The cluster at " + connection->server + " (context " + connection->context +
                                              ") as chaintwin snapshot read it at " + stamp + ", resourceVersion " +
                                              observed->resource_version + "." + in_flight}};
  scenario["seed"] = 1;
  scenario["horizon"] = horizon;
  const nlohmann::ordered_json objects = scenario_objects(*observed, free_cards);
  const size_t written = objects.size();
  scenario["cluster"] = {{"objects", objects}};
  if (!captured.generators.empty()) scenario["workloads"] = captured.generators;
  const std::string text = "# Written by chaintwin snapshot; `chaintwin run` continues from here.\n" + sim::to_yaml(scenario);
  // Load it back before writing: a snapshot that does not load is not written.
  if (auto back = sim::load_scenario_text(text, *output); !back.ok()) {
    err << "chaintwin snapshot: the captured cluster does not load as a scenario, nothing written: " << back.error() << "\n";
    return 3;
  }
  const std::string partial = *output + ".partial";
  {
    std::ofstream f(partial, std::ios::binary);
    f << text;
    if (!f) {
      err << "chaintwin snapshot: " << *output << ": cannot write\n";
      std::filesystem::remove(partial);
      return 2;
    }
  }
  std::filesystem::rename(partial, *output);
  out << "wrote " << *output << ": " << written << " objects and " << captured.generators.size()
      << " Workloads in flight (" << captured.holding << " holding quota, " << captured.pending << " pending) from "
      << connection->server << "\n";
  return 0;
}

}  // namespace chaintwin::cli
