// The simulator's kept Kueue state (sim/runner/kueue_cache.h): exact while it is told what moved,
// and its check names the part that went stale when it is not.
#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "../../model/kueue/scheduler/scheduler_fixtures.h"
#include "sim/runner/kueue_cache.h"

using namespace chaintwin;
using namespace chaintwin::model::testing;

namespace {

// The id the Simulation's book would give each Workload (one slot per key here).
sim::WorkloadId id(const std::string& key) {
  static std::map<std::string, sim::WorkloadId> ids;
  const auto it = ids.find(key);
  if (it != ids.end()) return it->second;
  const sim::WorkloadId fresh{static_cast<uint32_t>(ids.size()), 0};
  ids.emplace(key, fresh);
  return fresh;
}

// One cycle over the kept state, with the Simulation's bookkeeping of what it admitted.
void cycle(Fixture& f, sim::KueueCache& cache) {
  REQUIRE(cache.prepare(f.cluster, f.state, f.queues, false).empty());
  auto result = model::schedule_cycle(f.cluster, f.state, f.queues, 0, f.config, cache.for_cycle());
  size_t reserved = 0;
  for (const auto& t : result.transitions) reserved += t.type == model::TransitionType::kQuotaReserved ? 1 : 0;
  REQUIRE(result.admitted_usage.size() == reserved);  // one record per admission
  for (auto& a : result.admitted_usage) {
    CHECK(a.usage == model::workload_usage(f.state.workloads.at(a.key)));
    cache.admitted_by_cycle(f.state, id(a.key), a.key, std::move(a.usage), std::move(a.cells));
  }
}

// What the Simulation does after a Workload's reservation moved.
void tell(Fixture& f, sim::KueueCache& cache, const std::string& key, const std::string& was_in = "") {
  cache.sync_usage(f.state, key, id(key));
  cache.reservation_moved(f.state, key, was_in, id(key));
}

// `cycles` cycles, the cache told after each of where a and b stand; both must then hold quota.
void admit_a_and_b(Fixture& f, sim::KueueCache& cache, int cycles) {
  for (int i = 0; i < cycles; ++i) {
    cycle(f, cache);
    for (const auto* key : {"default/a", "default/b"}) tell(f, cache, key);
  }
  REQUIRE(f.wl("a").status.admission);
  REQUIRE(f.wl("b").status.admission);
}

// The admission check a checked queue names.
const std::string kCheck = "gpustack-node-devices";

// One Node of 8 cards, flavor f1, and ClusterQueue "cq" (8 cards on f1) admitting through kCheck:
// a Workload's reservation and its admission are two moves.
Fixture checked_queue() {
  Fixture f;
  f.node("n1", 8);
  f.flavor("f1");
  f.check(kCheck);
  f.queue("cq", {{"f1", 8}}, {kCheck});
  return f;
}

// A reservation rewritten to hold its resources in `flavor` (no one is told).
void to_flavor(Fixture& f, const std::string& name, const std::string& flavor) {
  for (auto& psa : f.wl(name).status.admission->pod_set_assignments)
    for (auto& [resource, held_in] : psa.flavors.mut()) held_in = flavor;
}

}  // namespace

TEST_CASE("the kept Kueue state equals a fresh derivation while it is told what moved", "[sim][kueue_cache]") {
  struct Row {
    const char* change;
    std::function<void(Fixture&, sim::KueueCache&)> apply;
    std::string prepare_says;  // what prepare(check) reports ("" = all agree)
    std::string totals_say;    // what check_queue_totals reports
  };
  const std::vector<Row> rows = {
      {"a cycle admits a Workload and the cache is told",
       [](Fixture& f, sim::KueueCache& c) {
         cycle(f, c);
         tell(f, c, "default/a");
       },
       "", ""},
      {"a cycle admits a Workload and nobody updates the totals",
       [](Fixture& f, sim::KueueCache& c) { cycle(f, c); }, "", "the kept queue totals differ from the Workloads'"},
      {"a reservation is dropped and the cache is told",
       [](Fixture& f, sim::KueueCache& c) {
         cycle(f, c);
         tell(f, c, "default/a");
         f.wl("a").status.admission.reset();
         tell(f, c, "default/a", "cq");
       },
       "", ""},
      {"a reservation is dropped behind the cache's back",
       [](Fixture& f, sim::KueueCache& c) {
         cycle(f, c);
         tell(f, c, "default/a");
         f.wl("a").status.admission.reset();
       },
       "the kept usage snapshot differs from the Workloads'", "the kept queue totals differ from the Workloads'"},
      {"a reservation moves to another flavor and the cache is told",
       [](Fixture& f, sim::KueueCache& c) {
         cycle(f, c);
         tell(f, c, "default/a");
         to_flavor(f, "a", "f2");
         tell(f, c, "default/a", "cq");
       },
       "", ""},
      {"a reservation moves to another flavor behind the cache's back",
       [](Fixture& f, sim::KueueCache& c) {
         cycle(f, c);
         tell(f, c, "default/a");
         to_flavor(f, "a", "f2");
       },
       "the kept usage snapshot differs from the Workloads'", "the kept queue totals differ from the Workloads'"},
      // The totals count one admission per Workload: a cycle's admission under another flavor
      // takes the old one out of them (the snapshot is dropped here, as the cycle would have
      // counted the new usage there).
      {"a cycle records an admission other than the one the totals count",
       [](Fixture& f, sim::KueueCache& c) {
         cycle(f, c);
         tell(f, c, "default/a");
         to_flavor(f, "a", "f2");
         c.usage_dropped();
         c.admitted_by_cycle(f.state, id("default/a"), "default/a", model::workload_usage(f.wl("a")), {});
         tell(f, c, "default/a", "cq");
       },
       "", ""},
      {"the cache is told twice of the same reservation",
       [](Fixture& f, sim::KueueCache& c) {
         cycle(f, c);
         tell(f, c, "default/a");
         tell(f, c, "default/a");
       },
       "", ""},
      // What a Workload added is taken out by the cells it went to, or, when the part was rebuilt
      // since (and counted it afresh), by its names.
      {"a Workload a cycle admitted finishes and the cache is told",
       [](Fixture& f, sim::KueueCache& c) {
         cycle(f, c);
         tell(f, c, "default/a");
         model::finish_workload(f.state, f.queues, "default/a", 1);
         tell(f, c, "default/a", "cq");
       },
       "", ""},
      {"the totals are rebuilt while a Workload holds quota, then it finishes and the cache is told",
       [](Fixture& f, sim::KueueCache& c) {
         cycle(f, c);
         tell(f, c, "default/a");
         c.sync_usage(f.state, "default/untracked", std::nullopt);  // rebuilds the totals and drops the snapshot
         REQUIRE(c.prepare(f.cluster, f.state, f.queues, true).empty());
         model::finish_workload(f.state, f.queues, "default/a", 1);
         tell(f, c, "default/a", "cq");
       },
       "", ""},
      {"the snapshot is dropped and built again while a Workload holds quota, then it finishes",
       [](Fixture& f, sim::KueueCache& c) {
         cycle(f, c);
         tell(f, c, "default/a");
         c.usage_dropped();
         REQUIRE(c.prepare(f.cluster, f.state, f.queues, true).empty());
         model::finish_workload(f.state, f.queues, "default/a", 1);
         tell(f, c, "default/a", "cq");
       },
       "", ""},
      {"a Workload the Simulation no longer tracks: everything is rebuilt",
       [](Fixture& f, sim::KueueCache& c) {
         cycle(f, c);
         tell(f, c, "default/a");
         f.state.workloads.erase("default/a");
         c.forget(id("default/a"), std::nullopt);
         c.sync_usage(f.state, "default/a", std::nullopt);
       },
       "", ""},
  };
  for (const auto& row : rows) {
    SECTION(row.change) {
      Fixture f;
      f.node("n1", 8);
      f.flavor("f1");
      f.flavor("f2");
      f.queue("cq", {{"f1", 8}, {"f2", 8}});
      f.submit("a", "cq", 2, 1, 1);
      sim::KueueCache cache;
      row.apply(f, cache);
      CHECK(cache.prepare(f.cluster, f.state, f.queues, true) == row.prepare_says);
      CHECK(cache.check_queue_totals(f.cluster, f.state, f.queues) == row.totals_say);
    }
  }
}

TEST_CASE("Gate 3's inflight candidates are the Workloads reserving on the same Nodes", "[sim][kueue_cache]") {
  Fixture f;
  f.node("n1", 8);
  f.node("n2", 8);
  f.flavor("f1");
  f.queue("cq", {{"f1", 24}});
  f.submit("a", "cq", 8, 1, 1);  // fills one Node
  f.submit("b", "cq", 8, 1, 2);  // fills the other
  f.submit("c", "cq", 1, 1, 3);  // does not fit anywhere
  sim::KueueCache cache;
  admit_a_and_b(f, cache, 3);
  CHECK(cache.reserving_beside(id("default/a")) == std::set<std::string>{"default/a"});
  CHECK(cache.reserving_beside(id("default/b")) == std::set<std::string>{"default/b"});
  CHECK(cache.reserving_beside(id("default/c")).empty());
  CHECK(cache.reserving_by_queue().at("cq") == model::ReservingKeys{"default/a", "default/b"});
}

TEST_CASE("a Workload whose Pods all hold their cards is no inflight candidate until they are released",
          "[sim][kueue_cache]") {
  struct Row {
    const char* what;
    std::function<void(sim::KueueCache&)> apply;
    std::set<std::string> beside_a;  // reserving_beside(a)
  };
  const std::vector<Row> rows = {
      {"both reserve on the one Node", [](sim::KueueCache&) {}, {"default/a", "default/b"}},
      {"b's Pods hold their cards", [](sim::KueueCache& c) { c.pods_allocated(id("default/b")); }, {"default/a"}},
      {"b's Pods hold their cards, then are released",
       [](sim::KueueCache& c) {
         c.pods_allocated(id("default/b"));
         c.pods_released(id("default/b"));
       },
       {"default/a", "default/b"}},
      {"b's Pods are released twice", [](sim::KueueCache& c) {
         c.pods_released(id("default/b"));
         c.pods_released(id("default/b"));
       },
       {"default/a", "default/b"}},
      // Its slot goes to another Workload next: no index may still name it.
      {"b is no longer tracked", [](sim::KueueCache& c) { c.forget(id("default/b"), std::nullopt); }, {"default/a"}},
      {"a's own Pods hold their cards", [](sim::KueueCache& c) { c.pods_allocated(id("default/a")); }, {"default/b"}},
  };
  for (const auto& row : rows) {
    INFO(row.what);
    Fixture f;
    f.node("n1", 8);
    f.flavor("f1");
    f.queue("cq", {{"f1", 8}});
    f.submit("a", "cq", 4, 1, 1);
    f.submit("b", "cq", 4, 1, 2);
    sim::KueueCache cache;
    admit_a_and_b(f, cache, 2);
    row.apply(cache);
    CHECK(cache.reserving_beside(id("default/a")) == row.beside_a);
  }
}

TEST_CASE("a Workload is listed among its ClusterQueue's reserving keys from its reservation to its finish",
          "[sim][kueue_cache]") {
  // Through an admission check, so the reservation and the admission are two moves; then a move to
  // another queue's name and back, and the finish.
  Fixture f = checked_queue();
  f.submit("a", "cq", 1, 1, 1);
  sim::KueueCache cache;
  const auto listed = [&](const std::string& queue) {
    const auto& by_queue = cache.reserving_by_queue();
    const auto it = by_queue.find(queue);
    return it == by_queue.end() ? model::ReservingKeys{} : it->second;
  };
  cycle(f, cache);
  tell(f, cache, "default/a");
  REQUIRE(f.wl("a").status.admission);
  REQUIRE_FALSE(f.wl("a").admitted());
  CHECK(listed("cq") == model::ReservingKeys{"default/a"});
  model::set_admission_check_state(f.cluster, f.state, f.queues, "default/a", kCheck, model::CheckState::kReady, "", 1);
  REQUIRE(f.wl("a").admitted());
  tell(f, cache, "default/a", "cq");
  CHECK(listed("cq") == model::ReservingKeys{"default/a"});  // admitted: still listed, once
  CHECK(cache.check_queue_totals(f.cluster, f.state, f.queues).empty());
  f.wl("a").status.admission->cluster_queue = "other";
  tell(f, cache, "default/a", "cq");
  CHECK(listed("cq").empty());
  CHECK(listed("other") == model::ReservingKeys{"default/a"});
  f.wl("a").status.admission->cluster_queue = "cq";
  tell(f, cache, "default/a", "other");
  CHECK(listed("cq") == model::ReservingKeys{"default/a"});
  CHECK(listed("other").empty());
  model::finish_workload(f.state, f.queues, "default/a", 2);
  tell(f, cache, "default/a", "cq");
  CHECK(listed("cq").empty());
  CHECK(cache.check_queue_totals(f.cluster, f.state, f.queues).empty());
}

TEST_CASE("a transition that moves no reservation leaves the kept state as reading every Node again would",
          "[sim][kueue_cache]") {
  // Two caches over one life of "a" beside "b" on one Node: one told each transition with
  // reservation_changed (which skips the Node part while the admission is the one its Nodes were
  // read from), the other with sync_usage and reservation_moved (which always reads them).
  Fixture f = checked_queue();
  f.submit("a", "cq", 4, 1, 1);
  f.submit("b", "cq", 4, 1, 2);
  sim::KueueCache skipping, reading;
  const auto transition = [&](const std::string& key) {
    skipping.reservation_changed(f.state, key, "cq", id(key));
    tell(f, reading, key, "cq");
  };
  const auto same = [&](const char* after) {
    INFO(after);
    for (const auto* key : {"default/a", "default/b"})
      CHECK(skipping.reserving_beside(id(key)) == reading.reserving_beside(id(key)));
    CHECK(skipping.prepare(f.cluster, f.state, f.queues, true).empty());
    CHECK(skipping.check_queue_totals(f.cluster, f.state, f.queues).empty());
  };
  // Cycles until both hold quota, the admissions recorded as the Simulation records them (the
  // reading cache drops its snapshot instead: the cycle added them to the other one's).
  for (int i = 0; i < 3 && !(f.wl("a").status.admission && f.wl("b").status.admission); ++i) {
    REQUIRE(skipping.prepare(f.cluster, f.state, f.queues, false).empty());
    model::CycleResult result = model::schedule_cycle(f.cluster, f.state, f.queues, 0, f.config, skipping.for_cycle());
    reading.usage_dropped();
    for (auto& a : result.admitted_usage) {
      skipping.admitted_by_cycle(f.state, id(a.key), a.key, std::move(a.usage), std::move(a.cells));
      transition(a.key);  // QuotaReserved
    }
  }
  REQUIRE(f.wl("a").status.admission);
  REQUIRE(f.wl("b").status.admission);
  same("both reserved");
  CHECK(skipping.reserving_beside(id("default/a")) == std::set<std::string>{"default/a", "default/b"});
  transition("default/a");  // a second transition of the same change
  same("a told twice");
  model::set_admission_check_state(f.cluster, f.state, f.queues, "default/a", kCheck, model::CheckState::kReady, "", 1);
  REQUIRE(f.wl("a").admitted());
  transition("default/a");  // Admitted: the same reservation
  same("a admitted");
  for (auto* cache : {&skipping, &reading}) cache->pods_allocated(id("default/a"));
  transition("default/a");  // a transition after its Pods hold their cards
  same("a's Pods hold their cards");
  CHECK(skipping.reserving_beside(id("default/b")) == std::set<std::string>{"default/b"});
  CHECK(skipping.reserving_beside(id("default/a")) == std::set<std::string>{"default/b"});
  model::finish_workload(f.state, f.queues, "default/b", 2);  // b's Pods never held their cards
  transition("default/b");  // Finished
  transition("default/b");  // QuotaReleased
  same("b finished");
  CHECK(skipping.reserving_beside(id("default/a")).empty());
  model::finish_workload(f.state, f.queues, "default/a", 2);
  transition("default/a");  // Finished
  transition("default/a");  // QuotaReleased
  same("a finished");
}
