#include <catch2/catch.hpp>

#include "scheduler_fixtures.h"

using namespace chaintwin::model;
using namespace chaintwin::model::testing;

namespace {

const std::string kCheck = "gpustack-node-devices";

std::vector<std::string> kinds(const std::vector<WorkloadTransition>& ts) {
  std::vector<std::string> out;
  for (const auto& t : ts) out.push_back(t.workload + " " + std::string(transition_type_name(t.type)) + "/" + std::string(transition_reason_name(t.reason)));
  return out;
}

// A cluster with one checked queue "cq" (2 cards of nominal quota on flavor f1).
Fixture checked_cluster(int64_t cards = 2) {
  Fixture f;
  f.node("n1", 8);
  f.flavor("f1");
  f.check(kCheck);
  f.queue("cq", {{"f1", cards}}, {kCheck});
  return f;
}

std::vector<WorkloadTransition> verdict(Fixture& f, const std::string& name, CheckState s, TimeUs now = 0) {
  return set_admission_check_state(f.cluster, f.state, f.queues, "default/" + name, kCheck, s, "", now);
}

// Two queues on one Node: "a" over flavors fa and fb, "b" over fa, each holding one admitted
// Workload ("a1", "b1"), their statuses listing what they hold (flavor fb left out of "a" when
// `a_on_fb` is false).
Fixture reported_pair(bool a_on_fb) {
  Fixture f;
  f.node("n1", 8);
  f.flavor("fa");
  f.flavor("fb");
  if (a_on_fb) f.queue("a", {{"fa", 4}, {"fb", 4}});
  else f.queue("a", {{"fa", 4}});
  f.queue("b", {{"fa", 4}});
  f.submit("a1", "a");
  f.submit("b1", "b");
  f.cycle();
  for (const auto& [name, status] : cluster_queue_usage(f.cluster, f.state, f.queues))
    f.cluster.cluster_queues[name].status = status;
  REQUIRE(cluster_queue_usage(f.cluster, f.state, f.queues).empty());
  return f;
}

}  // namespace

TEST_CASE("a Ready check admits and a Retry evicts and requeues behind younger Workloads", "[kueue][lifecycle]") {
  auto f = checked_cluster();
  f.submit("w1", "cq", 1, 1, 1);
  f.submit("w2", "cq", 2, 1, 2);
  f.cycle();
  REQUIRE(f.wl("w1").quota_reserved());

  const auto retry = verdict(f, "w1", CheckState::kRetry, 100);
  CHECK(kinds(retry) == std::vector<std::string>{"default/w1 Evicted/AdmissionCheck", "default/w1 QuotaReleased/AdmissionCheck",
                                                 "default/w1 Requeued/BackoffFinished"});
  const auto& w1 = f.wl("w1");
  CHECK_FALSE(w1.quota_reserved());
  CHECK(w1.status.queue_order_time == 100);
  CHECK(w1.status.retries == 1);
  CHECK(w1.status.evictions == 1);
  CHECK(w1.status.admission_checks[0].state == CheckState::kPending);
  CHECK(find_condition(w1.status.conditions, kWorkloadEvicted)->reason == "AdmissionCheck");
  CHECK(f.queues.heap_order("cq") == std::vector<std::string>{"default/w2", "default/w1"});

  f.cycle();  // w2 (2 cards) reserves first now
  CHECK(f.wl("w2").quota_reserved());
  const auto ready = verdict(f, "w2", CheckState::kReady, 110);
  CHECK(kinds(ready) == std::vector<std::string>{"default/w2 Admitted/Admitted"});
  CHECK(f.wl("w2").admitted());
  CHECK(verdict(f, "w2", CheckState::kReady, 120).empty());
  CHECK(verdict(f, "w1", CheckState::kReady, 120).empty());  // no reservation: ignored
}

TEST_CASE("a Rejected check deactivates the Workload and takes it out of the queue", "[kueue][lifecycle]") {
  auto f = checked_cluster();
  f.submit("w1", "cq");
  f.cycle();
  const auto rejected = verdict(f, "w1", CheckState::kRejected, 5);
  CHECK(kinds(rejected) == std::vector<std::string>{"default/w1 Deactivated/AdmissionCheck", "default/w1 Evicted/Deactivated",
                                                    "default/w1 QuotaReleased/Deactivated"});
  CHECK_FALSE(f.wl("w1").active);
  CHECK_FALSE(f.wl("w1").quota_reserved());
  CHECK_FALSE(f.queues.contains("default/w1"));
  CHECK(f.queues.pending("cq") == 0);
}

TEST_CASE("Hold cancels a reservation waiting on checks but keeps an admitted one", "[kueue][lifecycle]") {
  auto f = checked_cluster();
  f.submit("running", "cq", 1, 1, 1);
  f.submit("waiting", "cq", 1, 1, 2);
  f.cycle();
  verdict(f, "running", CheckState::kReady);
  f.cycle();
  REQUIRE(f.wl("waiting").quota_reserved());

  f.cluster.cluster_queues["cq"].spec.stop_policy = StopPolicy::kHold;
  const auto ts = sync_queue_states(f.cluster, f.state, f.queues, 10);
  CHECK(kinds(ts) == std::vector<std::string>{"default/waiting QuotaReleased/Inadmissible"});
  CHECK(f.wl("running").admitted());
  CHECK_FALSE(f.wl("waiting").quota_reserved());
  CHECK(find_condition(f.wl("waiting").status.conditions, kWorkloadEvicted) == nullptr);
  CHECK(f.message("waiting") == "ClusterQueue cq is inactive");
  CHECK(f.queues.pending("cq") == 1);
  CHECK(f.cycle().popped == 0);
}

TEST_CASE("HoldAndDrain evicts admitted Workloads and a restart requeues them in creation order", "[kueue][lifecycle]") {
  auto f = checked_cluster(4);
  f.submit("first", "cq", 1, 1, 1);
  f.submit("second", "cq", 1, 1, 2);
  f.cycle();
  f.cycle();
  verdict(f, "first", CheckState::kReady);
  verdict(f, "second", CheckState::kReady);

  f.cluster.cluster_queues["cq"].spec.stop_policy = StopPolicy::kHoldAndDrain;
  const auto drained = sync_queue_states(f.cluster, f.state, f.queues, 50);
  CHECK(kinds(drained) == std::vector<std::string>{"default/first Evicted/ClusterQueueStopped",
                                                   "default/second Evicted/ClusterQueueStopped"});
  const auto* requeued = f.cond("first", kWorkloadRequeued);
  REQUIRE(requeued != nullptr);
  CHECK(requeued->status == "False");
  CHECK(f.queues.pending("cq") == 2);
  CHECK(f.queues.inadmissible("cq") == 2);
  CHECK(sync_queue_states(f.cluster, f.state, f.queues, 60).empty());

  f.cluster.cluster_queues["cq"].spec.stop_policy = StopPolicy::kNone;
  const auto restarted = sync_queue_states(f.cluster, f.state, f.queues, 70);
  CHECK(kinds(restarted) == std::vector<std::string>{"default/first Requeued/ClusterQueueRestarted",
                                                     "default/second Requeued/ClusterQueueRestarted"});
  CHECK(f.queues.heap_order("cq") == std::vector<std::string>{"default/first", "default/second"});
  f.cycle(80);
  CHECK(f.wl("first").quota_reserved());
  CHECK(f.wl("first").status.admission_checks[0].state == CheckState::kPending);
}

TEST_CASE("an inactive AdmissionCheck makes its ClusterQueue admit nothing", "[kueue][lifecycle]") {
  auto f = checked_cluster();
  f.check(kCheck, false);
  f.submit("w1", "cq");
  CHECK(f.cycle().popped == 0);
  const auto ts = sync_queue_states(f.cluster, f.state, f.queues, 1);
  CHECK(kinds(ts) == std::vector<std::string>{"default/w1 Pending/Inadmissible"});
  CHECK(f.message("w1") == "ClusterQueue cq is inactive");

  f.check(kCheck, true);
  sync_queue_states(f.cluster, f.state, f.queues, 2);
  f.cycle();
  CHECK(f.wl("w1").quota_reserved());
}

TEST_CASE("a deleted ClusterQueue evicts nothing and only cancels waiting reservations", "[kueue][lifecycle]") {
  auto f = checked_cluster();
  f.submit("running", "cq", 1, 1, 1);
  f.submit("waiting", "cq", 1, 1, 2);
  f.cycle();
  verdict(f, "running", CheckState::kReady);
  f.cycle();
  f.submit("queued", "cq", 1, 1, 3);

  f.cluster.cluster_queues["cq"].metadata.deletion_timestamp = "2025-01-01T00:00:00Z";
  const auto ts = sync_queue_states(f.cluster, f.state, f.queues, 10);
  CHECK(f.wl("running").admitted());
  CHECK(f.wl("running").status.evictions == 0);
  CHECK_FALSE(f.wl("waiting").quota_reserved());
  for (const auto& t : ts) CHECK(t.type != TransitionType::kEvicted);
  CHECK(f.cycle().popped == 0);
}

TEST_CASE("a Workload whose LocalQueue is missing waits and is placed when the queue appears", "[kueue][lifecycle]") {
  Fixture f;
  f.node("n1", 2);
  f.flavor("f1");
  f.submit("early", "later");
  CHECK(f.queues.unplaced().size() == 1);
  const auto ts = sync_queue_states(f.cluster, f.state, f.queues, 1);
  CHECK(kinds(ts) == std::vector<std::string>{"default/early Pending/Inadmissible"});
  CHECK(f.message("early") == "LocalQueue lq-later doesn't exist");

  f.queue("later", {{"f1", 2}});
  sync_queue_states(f.cluster, f.state, f.queues, 2);
  CHECK(f.queues.pending("later") == 1);
  f.cycle();
  CHECK(f.wl("early").admitted());
}

TEST_CASE("ClusterQueue status counts Workloads and lists every flavor", "[kueue][lifecycle]") {
  Fixture f;
  f.node("n1", 8);
  f.flavor("fa");
  f.flavor("fb");
  f.check(kCheck);
  f.queue("cq", {{"fa", 2}, {"fb", 2}}, {kCheck});
  f.submit("admitted", "cq", 1, 1, 1);
  f.submit("reserving", "cq", 1, 1, 2);
  f.submit("pending", "cq", 3, 1, 3);
  f.cycle();
  verdict(f, "admitted", CheckState::kReady);
  f.cycle();
  auto changed = cluster_queue_usage(f.cluster, f.state, f.queues);
  REQUIRE(changed.count("cq") == 1);
  const auto& s = changed.at("cq");
  CHECK(s.pending_workloads == 1);
  CHECK(s.reserving_workloads == 2);
  CHECK(s.admitted_workloads == 1);
  REQUIRE(s.flavors_reservation.size() == 2);
  CHECK(s.flavors_reservation[0].name == "fa");
  CHECK(s.flavors_reservation[0].resources[0].total == q(2 * kM));
  CHECK(s.flavors_reservation[1].resources[0].total == q(0));
  CHECK(s.flavors_usage[0].resources[0].total == q(kM));
  CHECK(s.flavors_usage[0].resources[0].total.to_string() == "1600k");

  f.cluster.cluster_queues["cq"].status = s;
  CHECK(cluster_queue_usage(f.cluster, f.state, f.queues).empty());
  finish_workload(f.state, f.queues, "default/admitted", 9);
  const auto after = cluster_queue_usage(f.cluster, f.state, f.queues);
  REQUIRE(after.count("cq") == 1);
  CHECK(after.at("cq").admitted_workloads == 0);
  CHECK(after.at("cq").flavors_usage[0].resources[0].total == q(0));
}

TEST_CASE("A status report over the queues whose totals moved reads the others' pending count only",
          "[kueue][lifecycle]") {
  // Two queues whose statuses list what they hold; then one of them changes, in the ways a report
  // can see, with or without being named as moved.
  struct Row {
    const char* change;
    bool name_it;     // the queue is in amounts_moved
    bool reported;    // cluster_queue_usage lists it
  };
  const std::vector<Row> rows = {
      {"nothing", false, false},
      {"nothing", true, false},
      {"a Workload queued", false, true},  // the pending count is always compared
      {"a Workload finished", true, true},
      {"a Workload finished", false, false},  // not named: its amounts are taken as listed
  };
  for (const auto& row : rows) {
    DYNAMIC_SECTION(row.change << (row.name_it ? ", named" : ", not named")) {
      Fixture f = reported_pair(false);
      const std::string change = row.change;
      if (change == "a Workload queued") f.submit("a2", "a", 8);
      if (change == "a Workload finished") finish_workload(f.state, f.queues, "default/a1", 9);
      const std::set<std::string> moved = row.name_it ? std::set<std::string>{"a"} : std::set<std::string>{};
      const auto usage = cluster_queue_usage(f.cluster, build_queue_totals(f.state), f.queues, &moved);
      CHECK(usage.count("a") == (row.reported ? 1u : 0u));
      CHECK(usage.count("b") == 0);
      // Named or not, whatever it does list agrees with a report over every queue.
      const auto every = cluster_queue_usage(f.cluster, f.state, f.queues);
      CHECK(every.count("a") == (change == "nothing" ? 0u : 1u));
      for (const auto& [name, status] : usage) CHECK(every.at(name) == status);
    }
  }
}

TEST_CASE("a status report applied in place leaves each ClusterQueue as the report built afresh would",
          "[kueue][lifecycle]") {
  // Statuses that already list the spec's shape take the new quantities in place; any other list
  // (stale, reordered, borrowing, missing a flavor) is rebuilt, and says whether the (flavor,
  // resource) pairs the operator reads moved.
  struct Row {
    const char* status_before;
    bool shape_moved;  // what the write reports for queue "a"
  };
  const std::vector<Row> rows = {
      {"as listed, then a Workload finished", false},
      {"as listed, then a Workload queued", false},
      {"empty lists", true},
      {"the flavors in the other order", true},
      {"a borrowed amount", false},  // rebuilt, but the pairs read are the same
      {"a flavor without resources added", false},
      {"a resource renamed", true},
  };
  for (const auto& row : rows) {
    DYNAMIC_SECTION(row.status_before) {
      Fixture f = reported_pair(true);
      const std::string before = row.status_before;
      ClusterQueueStatus& s = f.cluster.cluster_queues["a"].status;
      if (before == "as listed, then a Workload finished") finish_workload(f.state, f.queues, "default/a1", 9);
      if (before == "as listed, then a Workload queued") f.submit("a2", "a", 8);
      if (before == "empty lists") s.flavors_reservation.clear(), s.flavors_usage.clear();
      if (before == "the flavors in the other order") std::swap(s.flavors_usage[0], s.flavors_usage[1]);
      if (before == "a borrowed amount") s.flavors_usage[0].resources[0].borrowed = q(1);
      if (before == "a flavor without resources added") s.flavors_reservation.push_back({"fz", {}});
      if (before == "a resource renamed") s.flavors_reservation[1].resources[0].name = "cpu";
      const auto expected = cluster_queue_usage(f.cluster, f.state, f.queues);
      REQUIRE(expected.count("a") == 1);
      std::vector<std::string> seen;
      const auto written = apply_cluster_queue_usage(f.cluster, build_queue_totals(f.state), f.queues, nullptr,
                                                     [&](const ClusterQueue& cq) { seen.push_back(cq.metadata.name); });
      REQUIRE(written.size() == 1);
      CHECK(written[0].cluster_queue == "a");
      CHECK(written[0].shape_moved == row.shape_moved);
      CHECK(seen == std::vector<std::string>{"a"});
      CHECK(f.cluster.cluster_queues.at("a").status == expected.at("a"));
      CHECK(cluster_queue_usage(f.cluster, f.state, f.queues).empty());
    }
  }
}

TEST_CASE("a queue sync told that no ClusterQueue changed gives what the full sync gives, and only then", "[kueue][lifecycle]") {
  auto f = checked_cluster(1);
  f.submit("w1", "cq", 1, 1, 1);
  f.submit("w2", "cq", 1, 1, 2);
  f.cycle();
  f.cycle();  // w2 does not fit beside w1: inadmissible
  sync_queue_states(f.cluster, f.state, f.queues, 10);  // every queue observed once (a requeue event)
  f.cycle(11);                                          // and w2 inadmissible again
  REQUIRE(f.queues.inadmissible("cq") == 1);

  SECTION("nothing changed: the same transitions and the same queue manager") {
    auto full_state = f.state;
    auto full_queues = f.queues;
    const auto full = sync_queue_states(f.cluster, full_state, full_queues, 20);
    const auto told = sync_queue_states(f.cluster, f.state, f.queues, 20, nullptr, nullptr, /*queues_unchanged=*/true);
    CHECK(told == full);
    CHECK(f.queues == full_queues);
    CHECK(f.state == full_state);
  }
  SECTION("a changed queue: only the full sync raises its requeue event (the caller must not say unchanged)") {
    f.cluster.cluster_queues["cq"].spec.resource_groups[0].flavors[0].resources[0].nominal_quota = Quantity::from_int(2);
    auto full_queues = f.queues;
    auto full_state = f.state;
    sync_queue_states(f.cluster, full_state, full_queues, 20);
    sync_queue_states(f.cluster, f.state, f.queues, 20, nullptr, nullptr, /*queues_unchanged=*/true);
    CHECK(full_queues.inadmissible("cq") == 0);  // released by the requeue event
    CHECK(f.queues.inadmissible("cq") == 1);
    CHECK_FALSE(f.queues == full_queues);
  }
}

TEST_CASE("a reservation charged into the queue totals comes out by its cells as it went in", "[kueue][lifecycle]") {
  // Two queues holding reservations, admitted or not; each reservation charged to totals that
  // already count the others, then taken out after more entries were made beside its cells.
  Fixture f;
  f.node("n1", 8);
  f.flavor("fa");
  f.flavor("fb");
  f.check(kCheck);
  f.queue("a", {{"fa", 4}, {"fb", 4}}, {kCheck});
  f.queue("b", {{"fa", 4}});
  f.submit("a1", "a", 1, 1, 1);
  f.submit("a2", "a", 1, 1, 2);
  f.submit("b1", "b", 2, 1, 3);
  f.cycle();
  verdict(f, "a1", CheckState::kReady);
  f.cycle();
  const QueueTotalsMap before = build_queue_totals(f.state);
  for (const char* name : {"a1", "a2", "b1"}) {
    const Workload& wl = f.wl(name);
    REQUIRE(wl.status.admission);
    for (const bool admitted : {false, true}) {
      INFO(name << (admitted ? " as admitted" : " as reserving"));
      QueueTotalsMap totals = before;
      QueueTotalsCharges charges = charge_queue_totals(totals, *wl.status.admission, admitted);
      QueueTotalsMap expected = before;
      add_queue_totals(expected, *wl.status.admission, admitted, +1);
      CHECK(totals == expected);
      totals["0-first"].reserved[{"fa", "cpu"}] = 5;  // entries made beside the cells
      totals[wl.status.admission->cluster_queue].used[{"a-flavor", "cpu"}] = 0;
      charges.take_out();
      CHECK(charges.totals == nullptr);
      charges.take_out();  // a second take-out takes nothing
      totals.erase("0-first");
      totals[wl.status.admission->cluster_queue].used.erase({"a-flavor", "cpu"});
      CHECK(totals == before);
    }
  }
}
