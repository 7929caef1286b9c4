#include <catch2/catch.hpp>

#include "model/kueue/scheduler/tas_assigner.h"
#include "model/kueue/scheduler/tas_leaf_cache.h"
#include "scheduler_fixtures.h"

using namespace chaintwin::model;
using namespace chaintwin::model::testing;

namespace {

struct Pool {
  Fixture f;
  TasNodeIndex index;
  PodSet pod_set;
  std::map<std::string, ResourceAmounts> usage;

  explicit Pool(int64_t cards_per_pod) {
    for (int i = 0; i < 6; ++i) f.node("n" + std::to_string(i), 1);
    f.flavor("f1");
    f.queue("cq", {{"f1", 64}});
    pod_set = f.submit("w", "cq", cards_per_pod, 2).pod_sets.front();
    index = build_tas_node_index(f.cluster);
  }
  TopologyResult place(TasLeafCache* cache) {
    return assign_topology(f.cluster, f.cluster.resource_flavors.at("f1"), pod_set, usage,
                           TasPlacement::kLeastFreeCapacity, &index, cache);
  }
  std::size_t position(const std::string& node) const {
    const auto& list = index.at("f1");
    return static_cast<std::size_t>(std::find(list.begin(), list.end(), node) - list.begin());
  }
};

}  // namespace

TEST_CASE("kept per-Node verdicts give the plain search's answer as Nodes change", "[kueue][tas][leaf-cache]") {
  Pool p(2);  // two Pods of 2 cards each on one-card Nodes: nothing fits
  TasLeafCache cache;
  CHECK(p.place(&cache) == p.place(nullptr));
  CHECK_FALSE(p.place(&cache).assignment);

  struct Step {
    const char* change;
    std::string node;
    int64_t cards;
    bool fits;
  };
  const std::vector<Step> steps = {
      {"one Node grows to two cards", "n3", 2, false},
      {"a second Node grows to four cards", "n5", 4, true},
      {"that Node shrinks back to one card", "n5", 1, false},
  };
  for (const auto& s : steps) {
    INFO(s.change);
    p.f.cluster.nodes.at(s.node).status.allocatable[kGpu] = q(s.cards);
    cache.node_changed("f1", p.position(s.node));
    const TopologyResult cached = p.place(&cache);
    CHECK(cached == p.place(nullptr));
    CHECK(cached.assignment.has_value() == s.fits);
  }
}

TEST_CASE("a Node change the cache is not told of is caught by verify", "[kueue][tas][leaf-cache]") {
  Pool p(2);
  TasLeafCache cache;
  p.place(&cache);
  p.f.cluster.nodes.at("n0").status.allocatable[kGpu] = q(4);  // nobody calls node_changed
  CHECK_FALSE(p.place(&cache).assignment);  // the stale verdict: still no room
  CHECK(p.place(nullptr).assignment);       // the truth
  cache.verify = true;
  p.place(&cache);
  CHECK_FALSE(cache.mismatch().empty());
}
