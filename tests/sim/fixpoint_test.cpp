// The chain's fixpoint, for every cluster under scenarios/: converging with operator_controllers()
// settles; converging the settled state again writes nothing; and running the same controllers
// in other orders (reversed, every rotation, a few fixed shuffles) settles in the same state. The
// chain has feedback the reconcile order does not follow (Kueue's status feeds NodeQueue and the
// InstanceType status; InstanceType and NodeQueue both write a queue's stop policy), so another
// order takes other passes — but must end in the same objects. Only what an API server stamps
// may differ between orders: resourceVersion, uid (and the owner references that copy it),
// generation (and the observedGeneration Kueue copies from it), creation timestamps, and the
// order of a status's conditions (appended by whoever wrote a type first).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "model/api/devices_codec.h"
#include "model/api/instance_type_codec.h"
#include "model/kueue/cluster_queue_codec.h"
#include "model/kueue/kueue_codec.h"
#include "model/api/node_codec.h"
#include "model/stage4/operator_controllers.h"
#include "model/stage4/reconcile_loop.h"
#include "model/api/topology_source_codec.h"
#include "tests/sim/scenario_clusters.h"

namespace {

using namespace chaintwin;
namespace m = chaintwin::model;

const std::string kNow = "2026-01-01T00:00:00Z";

using test_support::scenario_files;
m::ClusterState load(const std::string& path) { return test_support::load_cluster(path); }

// --- the normalizer: what only the API server stamps is cleared --------------------------------

void clear_stamps(m::ObjectMeta& meta) {
  meta.uid.clear();
  meta.resource_version.clear();
  meta.generation = 0;
  meta.creation_timestamp.clear();
  for (auto& owner : meta.owner_references) owner.uid.clear();
}

// Conditions are a list-map keyed by type (`+listMapKey=type`): a new type is appended, so the
// list order is the order the writers first came by (Kueue's Active, NodeQueue's TopologyReady)
// and changes with the controller order. Compared as a set, without the observedGeneration that
// copies the (cleared) generation.
void normalize_conditions(std::vector<m::Condition>& conditions) {
  for (auto& c : conditions) c.observed_generation = 0;
  std::sort(conditions.begin(), conditions.end(),
            [](const m::Condition& a, const m::Condition& b) { return a.type < b.type; });
}

template <typename Objects>
void clear_all(Objects& objects) {
  using T = typename Objects::mapped_type;
  for (auto& [key, o] : objects) {
    clear_stamps(o.metadata);
    if constexpr (std::is_same_v<T, m::ClusterQueue>) normalize_conditions(o.status.conditions);
    if constexpr (std::is_same_v<T, m::InstanceType>) normalize_conditions(o.status.conditions);
    if constexpr (std::is_same_v<T, m::AdmissionCheck>) normalize_conditions(o.conditions);
  }
}

m::ClusterState normalized(m::ClusterState s) {
  s.resource_version = 0;
  clear_all(s.nodes);
  clear_all(s.devices);
  clear_all(s.namespaces);
  clear_all(s.topology_sources);
  clear_all(s.topologies);
  clear_all(s.resource_flavors);
  clear_all(s.instance_types);
  clear_all(s.cluster_queues);
  clear_all(s.local_queues);
  clear_all(s.admission_checks);
  return s;
}

// The whole state as JSON (every kind through its codec), to show what differs when a test fails.
nlohmann::json dump(const m::ClusterState& s) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [k, o] : s.nodes) out["Node/" + k] = m::encode_node(o);
  for (const auto& [k, o] : s.devices) out["Devices/" + k] = m::encode_devices(o);
  for (const auto& [k, o] : s.namespaces) out["Namespace/" + k] = m::encode_namespace(o);
  for (const auto& [k, o] : s.topology_sources) out["TopologySource/" + k] = m::encode_topology_source(o);
  for (const auto& [k, o] : s.topologies) out["Topology/" + k] = m::encode_topology(o);
  for (const auto& [k, o] : s.resource_flavors) out["ResourceFlavor/" + k] = m::encode_resource_flavor(o);
  for (const auto& [k, o] : s.instance_types) out["InstanceType/" + k] = m::encode_instance_type(o);
  for (const auto& [k, o] : s.cluster_queues) out["ClusterQueue/" + k] = m::encode_cluster_queue(o);
  for (const auto& [k, o] : s.local_queues) out["LocalQueue/" + k] = m::encode_local_queue(o);
  for (const auto& [k, o] : s.admission_checks) out["AdmissionCheck/" + k] = m::encode_admission_check(o);
  return out;
}

std::string difference(const m::ClusterState& want, const m::ClusterState& got) {
  std::string out = nlohmann::json::diff(dump(want), dump(got)).dump(1);
  if (!(want.settings == got.settings)) out += "\n(settings differ)";
  return out;
}

// --- the orders ---------------------------------------------------------------------------------

using Order = std::pair<std::string, std::vector<m::Controller>>;

std::vector<std::string> names_of(const std::vector<m::Controller>& cs) {
  std::vector<std::string> out;
  for (const auto& c : cs) out.push_back(c.name);
  return out;
}

std::vector<m::Controller> by_names(const std::vector<m::Controller>& all, const std::vector<std::string>& names) {
  std::vector<m::Controller> out;
  for (const auto& n : names)
    for (const auto& c : all)
      if (c.name == n) out.push_back(c);
  REQUIRE(out.size() == all.size());
  return out;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : " > ") + n;
  return out;
}

// Reversed, every rotation of the reconcile order, and fixed shuffles: Kueue before NodeQueue
// and InstanceType (the feedback read before it is written), NodeQueueEntrance before the queues
// exist, NodeFlavor before the profiles it keys on, the stage-3 NodeProfile last.
std::vector<Order> other_orders(const std::vector<m::Controller>& canonical) {
  std::vector<Order> out;
  auto reversed = canonical;
  std::reverse(reversed.begin(), reversed.end());
  out.emplace_back("reversed", reversed);
  for (size_t i = 1; i < canonical.size(); ++i) {
    auto rotated = canonical;
    std::rotate(rotated.begin(), rotated.begin() + static_cast<std::ptrdiff_t>(i), rotated.end());
    out.emplace_back("rotated by " + std::to_string(i), rotated);
  }
  const std::vector<std::vector<std::string>> shuffles{
      {"Instance", "Kueue", "NodeQueue", "InstanceType", "NodeQueueEntrance", "AdmissionCheck", "NodeFlavor",
       "NodeTopology", "NodeProfile"},
      {"NodeQueueEntrance", "Kueue", "NodeFlavor", "Instance", "NodeProfile", "NodeQueue", "NodeTopology",
       "AdmissionCheck", "InstanceType"},
      {"NodeTopology", "InstanceType", "Kueue", "NodeProfile", "NodeQueueEntrance", "NodeFlavor", "NodeQueue",
       "AdmissionCheck", "Instance"},
      {"AdmissionCheck", "NodeQueue", "NodeProfile", "Instance", "Kueue", "NodeFlavor", "InstanceType",
       "NodeTopology", "NodeQueueEntrance"},
  };
  for (size_t i = 0; i < shuffles.size(); ++i)
    out.emplace_back("shuffle " + std::to_string(i + 1), by_names(canonical, shuffles[i]));
  return out;
}

}  // namespace

TEST_CASE("the operator's controllers are the nine of the chain, in reconcile order", "[fixpoint]") {
  // The eight of the Kueue chain in their topological order, then the Instance controller's stop.
  CHECK(names_of(m::operator_controllers()) ==
        std::vector<std::string>{"NodeProfile", "NodeTopology", "NodeFlavor", "InstanceType", "AdmissionCheck",
                                 "NodeQueue", "NodeQueueEntrance", "Kueue", "Instance"});
}

TEST_CASE("every scenario converges, and converging the converged state writes nothing", "[fixpoint]") {
  const auto files = scenario_files();
  CHECK(files.size() >= 8);  // the example and the seven walkthrough clusters
  for (const auto& file : files) {
    INFO(file);
    const auto first = m::converge(load(file), m::operator_controllers(), kNow);
    REQUIRE(first.ok());
    CHECK(first->converged);
    CHECK(first->passes > 0);
    const auto again = m::converge(first->state, m::operator_controllers(), kNow);
    REQUIRE(again.ok());
    CHECK(again->converged);
    CHECK(again->passes == 0);
    CHECK(again->writes.empty());
    CHECK(again->state == first->state);
    // And each controller alone finds nothing to write on the fixpoint.
    for (const auto& c : m::operator_controllers()) {
      INFO(c.name);
      CHECK(c.reconcile(first->state).writes.empty());
    }
  }
}

TEST_CASE("every scenario reaches the same fixpoint whatever order the controllers run in", "[fixpoint]") {
  const auto canonical = m::operator_controllers();
  for (const auto& file : scenario_files()) {
    INFO(file);
    const auto input = load(file);
    const auto want = m::converge(input, canonical, kNow);
    REQUIRE(want.ok());
    REQUIRE(want->converged);
    const auto want_normalized = normalized(want->state);
    for (const auto& [label, order] : other_orders(canonical)) {
      INFO(label << ": " << joined(names_of(order)));
      const auto got = m::converge(input, order, kNow);
      REQUIRE(got.ok());
      CHECK(got->converged);
      const auto got_normalized = normalized(got->state);
      INFO("diff (JSON patch from the reconcile order's fixpoint):\n" << difference(want_normalized, got_normalized));
      CHECK(got_normalized == want_normalized);
      // The fixpoint is one for the canonical order too.
      const auto settled = m::converge(got->state, canonical, kNow);
      REQUIRE(settled.ok());
      CHECK(settled->passes == 0);
    }
  }
}
