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
#include "model/device_manager/device_inventory.h"
#include "model/api/devices_codec.h"
#include "sim/scenario/scenario_loader.h"
#include "sim/sim_time.h"
#include "sim/yaml_writer.h"

namespace chaintwin::cli {
namespace {

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

int snapshot_command(const SnapshotCommandOptions& o, std::ostream& out, std::ostream& err) {
  const std::string& name = o.name;
  const std::string& horizon = o.horizon.text;
  const std::optional<std::string> run_time = o.run_time ? std::optional(o.run_time->text) : std::nullopt;
  const bool with_workloads = !o.no_workloads;
  const live::KubeconfigRequest request = live::request_from_environment(o.kubeconfig, o.context);
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
  if (auto back = sim::load_scenario_text(text, o.output); !back.ok()) {
    err << "chaintwin snapshot: the captured cluster does not load as a scenario, nothing written: " << back.error() << "\n";
    return 3;
  }
  const std::string partial = o.output + ".partial";
  {
    std::ofstream f(partial, std::ios::binary);
    f << text;
    if (!f) {
      err << "chaintwin snapshot: " << o.output << ": cannot write\n";
      std::filesystem::remove(partial);
      return 2;
    }
  }
  std::filesystem::rename(partial, o.output);
  out << "wrote " << o.output << ": " << written << " objects and " << captured.generators.size()
      << " Workloads in flight (" << captured.holding << " holding quota, " << captured.pending << " pending) from "
      << connection->server << "\n";
  return 0;
}

}  // namespace chaintwin::cli
