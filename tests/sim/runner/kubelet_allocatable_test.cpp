// Kubelet's allocatable as the runner models it (chain_sync.h): the device plugin's counted keys
// less what cards held in another mode keep back (one whole card per card held shared or sliced,
// its shares per card held whole or sliced, its logical slices per card held whole or shared),
// never below zero; and the ledger-only fast path of sync_nodes writes it exactly when it moved.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "model/catalog/resource_names.h"
#include "model/credits.h"
#include "sim/runner/chain_sync.h"

namespace sim = chaintwin::sim;
namespace model = chaintwin::model;

namespace {

using Mode = model::DeviceAllocationMode;

// Node "n" with `modes.size()` NVIDIA cards, each sliceable into `slices` logical slices.
struct Fixture {
  model::Node node;
  model::Devices devices;
};

Fixture with_cards(const std::vector<Mode>& modes, int32_t slices, const model::ResourceList& capacity) {
  Fixture f;
  f.node.metadata.name = "n";
  f.node.status.capacity = capacity;
  f.node.status.allocatable = capacity;
  f.devices.metadata.name = "n";
  model::DevicesGroup spec;
  spec.manufacturer = "nvidia";
  spec.id = "t4";
  model::DevicesAllocationGroup status;
  status.manufacturer = "nvidia";
  status.id = "t4";
  for (std::size_t i = 0; i < modes.size(); ++i) {
    model::Accelerator acc;
    acc.id = "n-t4-" + std::to_string(i);
    acc.status.logical_sliced.count = slices;
    spec.accelerators.push_back(acc);
    model::AcceleratorAllocation row;
    row.id = acc.id;
    row.mode = modes[i];
    status.accelerators.push_back(row);
  }
  f.devices.spec.groups.push_back(spec);
  f.devices.status.groups.push_back(status);
  return f;
}

}  // namespace

TEST_CASE("kubelet's allocatable holds back what cards in another mode keep", "[runner][allocatable]") {
  const auto* names = model::resource_names_for("nvidia");
  REQUIRE(names != nullptr);
  const int64_t shares = model::kSharesPerAccelerator;
  struct Row {
    std::string what;
    std::vector<Mode> modes;
    int32_t slices;
    int64_t exclusive, shared, sliced;  // capacity of each key (−1: the key is absent)
    int64_t want_exclusive, want_shared, want_sliced;
  };
  const std::vector<Row> rows{
      {"free cards keep everything", {Mode::kNone, Mode::kNone}, 4, 2, 2 * shares, 8, 2, 2 * shares, 8},
      {"a card held whole keeps its shares and slices back", {Mode::kExclusive, Mode::kNone}, 4, 2, 2 * shares, 8,
       2, shares, 4},
      {"a card held shared keeps one whole card and its slices back", {Mode::kShared, Mode::kNone}, 4, 2, 2 * shares,
       8, 1, 2 * shares, 4},
      {"a card held sliced keeps one whole card and its shares back", {Mode::kSliced, Mode::kSliced}, 4, 2,
       2 * shares, 8, 0, 0, 8},
      {"one card in each mode", {Mode::kExclusive, Mode::kShared, Mode::kSliced}, 2, 3, 3 * shares, 6, 1, shares, 2},
      {"never below zero", {Mode::kSliced, Mode::kSliced}, 4, 1, shares, 8, 0, 0, 8},
      {"an absent key stays absent", {Mode::kExclusive}, 4, 1, -1, 4, 1, -1, 0},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    model::ResourceList capacity;
    capacity["cpu"] = model::Quantity::from_int(64);
    const auto put = [&](const std::string& key, int64_t v) {
      if (v >= 0) capacity[key] = model::Quantity::from_int(v);
    };
    put(names->exclusive, r.exclusive);
    put(names->shared, r.shared);
    put(names->sliced, r.sliced);
    Fixture f = with_cards(r.modes, r.slices, capacity);
    const model::ResourceList got = sim::kubelet_allocatable(f.node, &f.devices);
    const auto value = [&](const std::string& key) -> int64_t {
      const auto it = got.find(key);
      return it == got.end() ? -1 : it->second.value_ceil();
    };
    CHECK(value("cpu") == 64);
    CHECK(value(names->exclusive) == r.want_exclusive);
    CHECK(value(names->shared) == r.want_shared);
    CHECK(value(names->sliced) == r.want_sliced);
    CHECK(sim::kubelet_allocatable(f.node, nullptr) == capacity);
  }
}

TEST_CASE("a ledger change writes kubelet's allocatable exactly when it moved", "[runner][allocatable]") {
  const auto* names = model::resource_names_for("nvidia");
  REQUIRE(names != nullptr);
  struct Row {
    std::string what;
    Mode before, after;
    bool written;
  };
  const std::vector<Row> rows{
      {"a free card taken whole", Mode::kNone, Mode::kExclusive, true},
      {"a whole card given back", Mode::kExclusive, Mode::kNone, true},
      {"a card held whole, still whole", Mode::kExclusive, Mode::kExclusive, false},
      {"a card held shared turned sliced", Mode::kShared, Mode::kSliced, true},
      {"a free card, still free", Mode::kNone, Mode::kNone, false},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    model::ResourceList capacity;
    capacity[names->exclusive] = model::Quantity::from_int(2);
    capacity[names->shared] = model::Quantity::from_int(2 * model::kSharesPerAccelerator);
    capacity[names->sliced] = model::Quantity::from_int(8);
    Fixture f = with_cards({r.before, Mode::kNone}, 4, capacity);
    f.node.metadata.labels["gpustack.ai/managed"] = "true";
    f.node.status.allocatable = sim::kubelet_allocatable(f.node, &f.devices);  // settled before
    model::ClusterState cluster;
    cluster.nodes["n"] = f.node;
    cluster.devices["n"] = f.devices;
    // No cross-check: this bare Node lacks what stage 3 would label it with, which the whole
    // derivation would also write (incremental_sync_test.cpp cross-checks a settled cluster).
    // The change, then back and forth again: the later writes find the Node's own list in place.
    for (const Mode mode : {r.after, r.before, r.after}) {
      cluster.devices.at("n").status.groups[0].accelerators[0].mode = mode;
      const model::Devices& devices = cluster.devices.at("n");
      const std::string version = cluster.nodes.at("n").metadata.resource_version;
      const model::ResourceList before = cluster.nodes.at("n").status.allocatable;
      auto synced = sim::sync_nodes(cluster, {"n"}, sim::SimTime::minutes(1), /*cross_check=*/false);
      INFO((synced.ok() ? std::string() : synced.error()));
      REQUIRE(synced.ok());
      CHECK(synced->writes.size() == (r.written ? 1u : 0u));
      const model::Node& node = cluster.nodes.at("n");
      const model::ResourceList want = sim::kubelet_allocatable(node, &devices);
      REQUIRE(node.status.allocatable == want);
      // Written as kubelet writes them (a Quantity's == ignores the form).
      for (const auto& [key, value] : want) CHECK(node.status.allocatable.at(key).to_string() == value.to_string());
      CHECK((node.metadata.resource_version != version) == r.written);
      CHECK(before == (r.written ? sim::kubelet_allocatable(f.node, &f.devices) : want));  // a copy never moves
      if (r.written) {
        const model::WriteReceipt& w = synced->writes.front();
        CHECK(w.verb == model::WriteVerb::kUpdateStatus);
        CHECK(w.kind == "Node");
        CHECK(w.name == "n");
        CHECK(w.controller == "NodeCapacity");
      }
      f.devices = devices;
    }
  }
}
