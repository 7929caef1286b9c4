#include <catch2/catch.hpp>

#include <functional>

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
  NodeUsage usage;
  TasPlacement placement = TasPlacement::kLeastFreeCapacity;

  explicit Pool(int64_t cards_per_pod) {
    for (int i = 0; i < 6; ++i) f.node("n" + std::to_string(i), 1);
    f.flavor("f1");
    f.queue("cq", {{"f1", 64}});
    pod_set = f.submit("w", "cq", cards_per_pod, 2).pod_sets.front();
    index = build_tas_node_index(f.cluster);
  }
  TopologyResult place(TasLeafCache* cache) {
    return assign_topology(f.cluster, f.cluster.resource_flavors.at("f1"), pod_set, usage,
                           placement, &index, cache);
  }
  // One Pod whose nodeSelector asks for `key`=`on`, which only `node` carries (the others `off`).
  void select_one(const std::string& key, const std::string& node, const std::string& on, const std::string& off) {
    pod_set.count = 1;
    pod_set.template_.node_selector[key] = on;
    for (auto& [name, n] : f.cluster.nodes) n.metadata.labels[key] = name == node ? on : off;
    index = build_tas_node_index(f.cluster);
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

TEST_CASE("kept one-level totals give the plain search's answer over many Node changes", "[kueue][tas][leaf-cache]") {
  struct Row {
    const char* what;
    TasPlacement placement;
    bool required;      // the whole PodSet on one Node (requiredTopologyLevel: hostname)
    int32_t pods;       // Pods of one card each
    bool shared_value;  // two Nodes carry the same hostname value (the grouped search)
  };
  const std::vector<Row> rows = {
      {"BestFit, one Pod", TasPlacement::kBestFit, false, 1, false},
      {"BestFit, five Pods over several Nodes", TasPlacement::kBestFit, false, 5, false},
      {"LeastFreeCapacity, three Pods", TasPlacement::kLeastFreeCapacity, false, 3, false},
      {"LeastFreeCapacity, required on one Node", TasPlacement::kLeastFreeCapacity, true, 2, false},
      {"BestFit, required on one Node", TasPlacement::kBestFit, true, 3, false},
      {"two Nodes share a hostname value", TasPlacement::kBestFit, false, 4, true},
  };
  int fits = 0, misses = 0;
  for (const auto& row : rows) {
    INFO(row.what);
    Pool p(1);
    p.placement = row.placement;
    p.pod_set.count = row.pods;
    if (row.required) p.pod_set.required_topology_level = std::string(kHostnameLabel);
    if (row.shared_value) p.f.cluster.nodes.at("n4").metadata.labels[std::string(kHostnameLabel)] = "n5";
    p.index = build_tas_node_index(p.f.cluster);
    TasLeafCache cache;
    uint64_t seed = 12345;
    // 700 changes on 6 Nodes: the change log is trimmed (past 2 x 6 + 256 entries) twice.
    // Every 40th change relabels a Node's hostname instead (a value that sorts elsewhere, or one
    // another Node carries): the kept order ranks the values again.
    const std::vector<std::string> hostnames{"a-first", "n2", "n3x", "z-last", "n0"};
    for (int step = 0; step < 700; ++step) {
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      const std::string node = "n" + std::to_string((seed >> 33) % 6);
      auto& labels = p.f.cluster.nodes.at(node).metadata.labels;
      if (step % 40 == 39 && !row.shared_value)
        labels[std::string(kHostnameLabel)] = hostnames[(seed >> 45) % hostnames.size()];
      else
        p.f.cluster.nodes.at(node).status.allocatable[kGpu] = q(static_cast<int64_t>((seed >> 40) % 5));
      cache.node_changed("f1", p.position(node));
      if (step % 3 != 0) continue;  // some changes pile up between searches
      const TopologyResult cached = p.place(&cache);
      const TopologyResult plain = p.place(nullptr);
      INFO("step " << step);
      REQUIRE(cached == plain);
      (cached.assignment ? fits : misses) += 1;
      // The kept order ranks the hostname each Node with room carries now.
      for (const auto& [name, n] : p.f.cluster.nodes)
        if (n.status.allocatable.at(kGpu).value_ceil() > 0) {
          const FlavorValues& v = cache.values("f1");
          REQUIRE(v.text(v.rank[p.position(name)]) == n.metadata.labels.at(std::string(kHostnameLabel)));
        }
    }
  }
  CHECK(fits > 0);  // the table exercises both outcomes
  CHECK(misses > 0);
}

TEST_CASE("recounting a verdict keeps the totals that taking it out and putting the new one in give",
          "[kueue][tas][leaf-cache]") {
  // Two shapes over the same eight positions take the same verdicts, one by recount and one by
  // uncount / assign / count; after every step their totals must be equal, and equal to totals
  // counted afresh. The verdicts cycle through room of 0..3 Pods and exclusions; now and then a
  // position's first level value moves (to one that some positions share), the values are ranked
  // again and both shapes are keyed again.
  const std::vector<std::string> texts{"rack-b", "rack-a", "rack-c", "rack-a-long-value-beyond-sso"};
  constexpr std::size_t kNodes = 8;
  FlavorValues values;
  for (std::size_t i = 0; i < kNodes; ++i) values.value.push_back(texts[i % texts.size()]);
  values.rerank();
  values.epoch = 1;
  const auto verdict = [&](uint32_t r, std::size_t i) {
    TasNodeVerdict v;
    switch (r % 7) {
      case 0: v.excluded = TasNodeVerdict::Excluded::kNodeSelector; break;
      case 1: v.excluded = TasNodeVerdict::Excluded::kAffinity; break;
      case 2: v.short_of = r % 2 ? "cpu" : "memory"; break;  // room for no Pod
      default: v.pods = static_cast<int32_t>(r % 4 + 1); break;
    }
    if (v.offers_room()) v.values = {values.value[i]};
    return v;
  };
  const auto fresh_shape = [&] {
    TasLeafCache::Shape s;
    s.verdicts.assign(kNodes, {});
    s.counted.assign(kNodes, 0);
    s.computed_at.assign(kNodes, 0);
    s.ranked_at = values.epoch;
    return s;
  };
  // Equal totals; the per-value counts may differ in trailing zeros (a count sized by fewer values).
  const auto same_totals = [](const TasShapeTotals& x, const TasShapeTotals& y) {
    auto uses = [](std::vector<int32_t> v) {
      while (!v.empty() && v.back() == 0) v.pop_back();
      return v;
    };
    return x.by_room == y.by_room && x.pods == y.pods && x.excluded == y.excluded &&
           x.shared_values == y.shared_values && uses(x.value_uses) == uses(y.value_uses);
  };
  TasLeafCache::Shape a = fresh_shape(), b = fresh_shape();
  uint32_t seed = 12345;
  int fast_steps = 0, reranks = 0;
  for (int step = 0; step < 4000; ++step) {
    seed = seed * 1664525u + 1013904223u;
    const std::size_t i = (seed >> 8) % kNodes;
    if (step % 50 == 49) {  // the Node at i is relabelled
      values.value[i] = texts[(seed >> 12) % texts.size()];
      values.rerank();
      ++values.epoch;
      ++reranks;
      a.rekey(values);
      b.rekey(values);
    }
    // Mostly a change of room, as a Pod start or finish gives.
    const bool had_room = a.counted[i] && a.verdicts[i].offers_room();
    const TasNodeVerdict next = verdict(seed >> 12, i);
    if (had_room && next.offers_room()) ++fast_steps;
    a.recount(i, next, values);
    b.uncount(i, values);
    b.verdicts[i] = next;
    b.count(i, values);
    TasLeafCache::Shape c = fresh_shape();
    c.verdicts = a.verdicts;
    for (std::size_t k = 0; k < kNodes; ++k)
      if (a.counted[k]) c.count(k, values);
    REQUIRE(same_totals(a.totals, b.totals));
    REQUIRE(same_totals(a.totals, c.totals));
    REQUIRE(a.verdicts == b.verdicts);
    REQUIRE(a.counted == b.counted);
  }
  CHECK(fast_steps > 500);  // the same-room path was taken, not only the general one
  CHECK(reranks > 50);
}

TEST_CASE("a flavor's values rank in text order, equal texts sharing a rank", "[kueue][tas][leaf-cache]") {
  struct Row {
    const char* what;
    std::vector<std::string> texts;
    std::vector<uint32_t> ranks;
  };
  const std::vector<Row> rows = {
      {"already in order", {"a", "b", "c"}, {0, 1, 2}},
      {"in reverse order", {"c", "b", "a"}, {2, 1, 0}},
      {"two positions share a text", {"n2", "n1", "n2", "n0"}, {2, 1, 2, 0}},
      {"unseen positions (empty) rank first", {"x", "", "w", ""}, {2, 0, 1, 0}},
      {"a long shared prefix decides late", {"gpustack-node-10", "gpustack-node-9", "gpustack-node-1"}, {1, 2, 0}},
  };
  for (const auto& row : rows) {
    INFO(row.what);
    FlavorValues v;
    v.value = row.texts;
    v.rerank();
    CHECK(v.rank == row.ranks);
    for (std::size_t i = 0; i < row.texts.size(); ++i) CHECK(v.text(v.rank[i]) == row.texts[i]);
  }
}

TEST_CASE("a Node named to the cache marks the same positions as the flavor and position would",
          "[kueue][tas][leaf-cache]") {
  const std::map<std::string, std::vector<std::string>> index = {
      {"f1", {"a", "b", "c"}}, {"f2", {"b", "d"}}, {"f3", {}}};
  TasLeafCache by_name, by_position;
  by_name.index_nodes(index);
  CHECK(by_name.indexes(index));
  CHECK_FALSE(by_position.indexes(index));
  for (TasLeafCache* c : {&by_name, &by_position}) {
    c->generations("f1", 3);
    c->generations("f2", 2);
  }
  struct Row {
    std::string node;
    std::vector<std::pair<std::string, std::size_t>> positions;  // what the name stands for
  };
  const std::vector<Row> rows = {{"b", {{"f1", 1}, {"f2", 0}}}, {"d", {{"f2", 1}}}, {"zz", {}}, {"a", {{"f1", 0}}}};
  for (const auto& row : rows) {
    INFO(row.node);
    by_name.node_changed(std::string_view(row.node));
    for (const auto& [flavor, i] : row.positions) by_position.node_changed(flavor, i);
    CHECK(by_name.generations("f1", 3) == by_position.generations("f1", 3));
    CHECK(by_name.generations("f2", 2) == by_position.generations("f2", 2));
  }
}

TEST_CASE("a flavor's index names the same flavor as its name does, before and after clear()", "[tas_leaf_cache]") {
  TasLeafCache by_name, by_index;
  const uint32_t f1 = by_index.flavor_index("f1");
  CHECK(by_index.flavor_index("f2") != f1);
  for (TasLeafCache* c : {&by_name, &by_index}) c->generations("f1", 4);
  const auto change = [&](std::size_t position) {
    by_name.node_changed("f1", position);
    by_index.node_changed(f1, position);
  };
  change(2);
  change(0);
  CHECK(by_name.generations("f1", 4) == by_index.generations("f1", 4));
  by_index.clear();
  by_name.clear();
  CHECK(by_index.flavor_index("f1") == f1);  // kept across clear()
  change(1);  // nothing cached for the flavor since clear(): ignored by both
  for (TasLeafCache* c : {&by_name, &by_index}) c->generations("f1", 4);
  change(3);
  CHECK(by_name.generations("f1", 4) == by_index.generations("f1", 4));
  by_index.node_changed(f1 + 7, 0);  // an index never handed out: nothing happens
  CHECK(by_name.generations("f1", 4) == by_index.generations("f1", 4));
}

TEST_CASE("a change of room alone keeps a Node's exclusion and level values, a label change reads them again",
          "[kueue][tas][leaf-cache]") {
  // Six Nodes, a PodSet selecting zone=a: Nodes move between zones (a label change, told as
  // kAny), are relabelled in hostname (kAny), and grow or shrink in cards (told as kRoom); after
  // each batch of changes the kept verdicts give the plain search's answer.
  struct Row {
    const char* what;
    TasPlacement placement;
    int32_t pods;
  };
  const std::vector<Row> rows = {
      {"BestFit, one Pod", TasPlacement::kBestFit, 1},
      {"BestFit, three Pods", TasPlacement::kBestFit, 3},
      {"LeastFreeCapacity, two Pods", TasPlacement::kLeastFreeCapacity, 2},
  };
  int room_changes = 0, label_changes = 0, fits = 0, misses = 0;
  for (const auto& row : rows) {
    INFO(row.what);
    Pool p(1);
    p.placement = row.placement;
    p.pod_set.count = row.pods;
    p.pod_set.template_.node_selector["zone"] = "a";
    for (auto& [name, n] : p.f.cluster.nodes) n.metadata.labels["zone"] = name < "n3" ? "a" : "b";
    p.index = build_tas_node_index(p.f.cluster);
    TasLeafCache cache;
    uint64_t seed = 777;
    const std::vector<std::string> hostnames{"h-a", "n9", "z", "n1x"};
    for (int step = 0; step < 900; ++step) {
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      const std::string node = "n" + std::to_string((seed >> 33) % 6);
      Node& n = p.f.cluster.nodes.at(node);
      switch ((seed >> 40) % 10) {
        case 0:
          n.metadata.labels["zone"] = n.metadata.labels["zone"] == "a" ? "b" : "a";
          cache.node_changed("f1", p.position(node), NodeChange::kAny);
          ++label_changes;
          break;
        case 1:
          n.metadata.labels[std::string(kHostnameLabel)] = hostnames[(seed >> 45) % hostnames.size()];
          cache.node_changed("f1", p.position(node), NodeChange::kAny);
          ++label_changes;
          break;
        default:
          n.status.allocatable[kGpu] = q(static_cast<int64_t>((seed >> 45) % 4));
          cache.node_changed("f1", p.position(node), NodeChange::kRoom);
          ++room_changes;
      }
      if (step % 3 != 0) continue;
      const TopologyResult cached = p.place(&cache);
      INFO("step " << step);
      REQUIRE(cached == p.place(nullptr));
      (cached.assignment ? fits : misses) += 1;
    }
  }
  CHECK(room_changes > 1000);
  CHECK(label_changes > 200);
  CHECK(fits > 0);
  CHECK(misses > 0);
}

TEST_CASE("a label change told as a change of room is not read again, and verify says so",
          "[kueue][tas][leaf-cache]") {
  struct Row {
    const char* what;
    std::function<void(Node&)> relabel;
  };
  const std::vector<Row> rows = {
      {"a Node leaves the selected zone", [](Node& n) { n.metadata.labels["zone"] = "b"; }},
      {"a Node's hostname moves", [](Node& n) { n.metadata.labels[std::string(kHostnameLabel)] = "a-first"; }},
  };
  for (const auto& row : rows) {
    INFO(row.what);
    Pool p(1);
    p.select_one("zone", "n2", "a", "b");
    TasLeafCache cache;
    REQUIRE(p.place(&cache) == p.place(nullptr));  // n2 holds the Pod
    Node& n2 = p.f.cluster.nodes.at("n2");
    row.relabel(n2);
    n2.status.allocatable[kGpu] = q(2);
    cache.node_changed("f1", p.position("n2"), NodeChange::kRoom);  // wrongly: the labels moved
    CHECK_FALSE(p.place(&cache) == p.place(nullptr));  // the kept exclusion or value was trusted
    cache.verify = true;
    p.place(&cache);
    CHECK_FALSE(cache.mismatch().empty());
  }
}

TEST_CASE("a change of volatile labels is read again by a shape that reads one, and only by it",
          "[kueue][tas][leaf-cache]") {
  // Volatile keys here: those under "v/". Two Nodes fit one Pod of one card; the PodSet selects
  // on `selector_key`. A Node's `selector_key` label is then changed so that the Node no longer
  // matches, reported as a volatile-label change: a shape that reads a volatile key sees it, one
  // that reads none keeps its verdict (which is why only volatile keys may be reported so).
  struct Row {
    const char* what;
    std::string selector_key;
    bool volatile_key;
  };
  const std::vector<Row> rows = {
      {"the selector reads a volatile key", "v/free", true},
      {"the selector reads no volatile key (a wrong report is not read)", "zone", false},
  };
  for (const auto& row : rows) {
    INFO(row.what);
    Pool p(1);
    p.select_one(row.selector_key, "n1", "yes", "no");
    TasLeafCache cache;
    cache.set_volatile_labels([](std::string_view key) { return key.starts_with("v/"); });
    CHECK(cache.volatile_label("v/free"));
    CHECK_FALSE(cache.volatile_label("zone"));
    REQUIRE(p.place(&cache).assignment);  // on n1
    p.f.cluster.nodes.at("n1").metadata.labels[row.selector_key] = "no";
    cache.node_changed("f1", p.position("n1"), NodeChange::kVolatileLabels);
    const TopologyResult plain = p.place(nullptr);
    CHECK_FALSE(plain.assignment);
    CHECK((p.place(&cache) == plain) == row.volatile_key);
  }
}

TEST_CASE("without volatile labels named, a volatile-label change counts as any change", "[kueue][tas][leaf-cache]") {
  Pool p(1);
  p.select_one("zone", "n1", "a", "b");
  TasLeafCache cache;
  REQUIRE(p.place(&cache).assignment);
  p.f.cluster.nodes.at("n1").metadata.labels["zone"] = "b";
  cache.node_changed("f1", p.position("n1"), NodeChange::kVolatileLabels);
  CHECK(p.place(&cache) == p.place(nullptr));
  CHECK_FALSE(p.place(&cache).assignment);
}

TEST_CASE("a shape whose required affinity pins a volatile label sees that label move", "[kueue][tas][leaf-cache]") {
  // The operator's fit pin: a required affinity "<fit label> Gt <n>" on the hostname level. Only
  // n1 has room under the pin; its label then falls to 0, told as a volatile-label change.
  Pool p(1);
  p.pod_set.count = 1;
  p.pod_set.template_.required_node_affinity = {NodeSelectorTerm{{{"v/free-units", "Gt", {"0"}}}, {}}};
  for (auto& [name, n] : p.f.cluster.nodes) n.metadata.labels["v/free-units"] = name == "n1" ? "3" : "0";
  p.index = build_tas_node_index(p.f.cluster);
  TasLeafCache cache;
  cache.set_volatile_labels([](std::string_view key) { return key.starts_with("v/"); });
  REQUIRE(p.place(&cache).assignment);  // on n1
  p.f.cluster.nodes.at("n1").metadata.labels["v/free-units"] = "0";
  cache.node_changed("f1", p.position("n1"), NodeChange::kVolatileLabels);
  const TopologyResult plain = p.place(nullptr);
  CHECK_FALSE(plain.assignment);
  CHECK(p.place(&cache) == plain);
}
