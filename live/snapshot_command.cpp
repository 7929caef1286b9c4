#include "live/snapshot_command.h"

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <optional>

#include <nlohmann/json.hpp>

#include "live/api_client.h"
#include "live/cluster_reader.h"
#include "live/kubeconfig.h"
#include "sim/scenario/scenario_loader.h"
#include "sim/sim_time.h"
#include "sim/yaml_writer.h"

namespace chaintwin::cli {
namespace {

constexpr const char* kSnapshotHelp = R"(Usage: chaintwin snapshot -o SCENARIO.yaml [--kubeconfig FILE] [--context NAME] [--name NAME] [--horizon T]

Reads the cluster (found as `chaintwin live` finds it) and writes a scenario whose cluster.objects
are its Nodes, Devices, Namespaces, Settings, InstanceTypes, TopologySources and Kueue
ResourceFlavors, ClusterQueues, LocalQueues, AdmissionChecks and Topologies as they are now
(server-set fields dropped), so `chaintwin run SCENARIO.yaml` continues from the real present:
add workloads and timeline entries to ask what-if questions. The file is checked by loading it
back before it is written; nothing is written when that fails. Workloads in flight are not captured
yet: the Devices ledgers keep the cards their Pods hold for the whole run, and ClusterQueue statuses
are left to the simulated Kueue (which counts no Workload).

  -o FILE          the scenario to write (required)
  --name NAME      metadata.name (default: snapshot)
  --horizon T      the scenario's horizon (default 24h)

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

}  // namespace

int snapshot_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  std::optional<std::string> kubeconfig, context, output;
  std::string name = "snapshot", horizon = "24h";
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
    } else if (a == "--name" || a == "--horizon") {
      const auto v = value();
      if (!v || v->empty()) {
        err << "chaintwin snapshot: " << a << " needs a value\n";
        return 2;
      }
      (a == "--name" ? name : horizon) = *v;
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
  nlohmann::ordered_json scenario;
  scenario["apiVersion"] = "chaintwin/v1";
  scenario["kind"] = "Scenario";
  const std::time_t now = std::time(nullptr);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  scenario["metadata"] = {{"name", name},
                          {"description", "The cluster at " + connection->server + " (context " + connection->context +
                                              ") as chaintwin snapshot read it at " + stamp + ", resourceVersion " +
                                              observed->resource_version + ". Workloads in flight are not captured."}};
  scenario["seed"] = 1;
  scenario["horizon"] = horizon;
  nlohmann::ordered_json objects = nlohmann::ordered_json::array();
  for (auto o : observed->raw) {
    drop_server_fields(o);
    // A ClusterQueue's status is Kueue's account of the Workloads it holds; no Workload is captured,
    // so the simulated Kueue starts it afresh. The Devices ledgers keep the cards in use.
    if (o.value("kind", "") == "ClusterQueue") o.erase("status");
    objects.push_back(nlohmann::ordered_json::parse(o.dump()));
  }
  scenario["cluster"] = {{"objects", objects}};
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
  out << "wrote " << *output << ": " << observed->objects << " objects from " << connection->server << "\n";
  return 0;
}

}  // namespace chaintwin::cli
