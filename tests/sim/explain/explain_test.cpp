// `explain` on small scenarios whose answer is known: who holds what a Workload needs, the gate
// and reason, and the smallest change — then that change applied to the scenario by hand (a
// timeline entry, or the workload class's namespace) and the run made again, which must admit it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "sim/explain/explain_report.h"
#include "sim/explain/explain_run.h"
#include "sim/runner/simulation.h"
#include "sim/scenario/default_scenario.h"
#include "sim/scenario/scenario_loader.h"

namespace {

using namespace chaintwin;
using sim::SimTime;

sim::Scenario load_text(const std::string& text) {
  auto s = sim::load_scenario_text(text, "explain.yaml");
  REQUIRE(s.ok());
  return *s;
}

sim::Scenario load_file(const std::string& path) {
  auto s = sim::load_scenario(std::string(CHAINTWIN_SOURCE_DIR) + "/" + path);
  REQUIRE(s.ok());
  return *s;
}

const sim::WorkloadStory& explain_one(const sim::Scenario& s, const std::string& key, SimTime at, SimTime within,
                                      sim::ExplainResult& keep) {
  sim::ExplainOptions o;
  o.workloads = {key};
  o.at = at;
  o.within = within;
  auto r = sim::explain_scenario(s, o);
  REQUIRE(r.ok());
  keep = std::move(*r);
  REQUIRE(keep.stories.size() == 1);
  return keep.stories.front();
}

// The smallest change the search found (it must have found one).
const sim::Change& smallest_change(const sim::WorkloadStory& story) {
  REQUIRE(story.smallest);
  return story.tried[*story.smallest].change;
}

std::vector<std::string> holder_keys(const model::Explanation& ex) {
  std::vector<std::string> out;
  for (const auto& h : ex.holders) out.push_back(h.workload);
  std::sort(out.begin(), out.end());
  return out;
}

// The change applied the way a user would: its timeline entries at `at` (or the class moved), the
// whole run made with Simulation::run(), and the Workload's outcome read from the record.
bool admitted_after_applying(sim::Scenario s, const sim::Change& change, SimTime at, SimTime within,
                             std::string key, const std::string& generator) {
  if (!change.move_to_namespace.empty()) {
    for (auto& w : s.workloads)
      if (w.name == generator) w.namespace_ = change.move_to_namespace;
    key = change.move_to_namespace + key.substr(key.find('/'));
  }
  for (auto a : change.actions) {
    a.at = at;
    a.where = {"test", 1};
    s.timeline.push_back(a);
  }
  std::stable_sort(s.timeline.begin(), s.timeline.end(), [](const auto& a, const auto& b) { return a.at < b.at; });
  if (s.horizon < at + within) s.horizon = at + within;
  sim::RunOptions o;
  o.until = at + within;
  auto r = sim::Simulation(s, o).run();
  REQUIRE(r.ok());
  for (const auto& w : r->workloads)
    if (w.key == key) return w.first_admitted.has_value() && (change.move_to_namespace.empty() ? at <= *w.first_admitted : true);
  FAIL("no outcome for " + key);
  return false;
}

const std::string kT4Node = R"(
    - name: t4-0
      cpu: {vendor: Intel, name: "Intel(R) Xeon(R) Platinum 8259CL CPU @ 2.50GHz", cores: 48}
      memory: 192Gi
      accelerators: {manufacturer: nvidia, product: Tesla T4, count: 3, memory: 16Gi}
)";

}  // namespace

TEST_CASE("a Workload short of quota names the Workloads holding it, and releasing the fewest of them admits it",
          "[explain]") {
  const auto s = load_text(R"(apiVersion: chaintwin/v1
kind: Scenario
metadata: {name: quota-held}
seed: 1
horizon: 4h
cluster:
  nodes:)" + kT4Node + R"(
workloads:
  - name: holder
    arrival: {at: [0s, 10s, 20s]}
    duration: {fixed: 10h}
    accelerator: nvidia-tesla-t4
    podSets: [{request: {exclusive: 1}}]
  - name: waiter
    arrival: {at: [1m]}
    duration: {fixed: 1h}
    accelerator: nvidia-tesla-t4
    podSets: [{request: {exclusive: 2}}]
)");
  sim::ExplainResult keep;
  const auto& story = explain_one(s, "default/waiter-0", SimTime::minutes(30), SimTime::hours(1), keep);
  const auto& ex = story.explanation;
  CHECK(ex.place.gate == model::Gate::kGate2);
  CHECK_THAT(ex.place.reason, Catch::Contains("insufficient unused quota for credits.gpustack.ai/nvidia"));
  CHECK(holder_keys(ex) == std::vector<std::string>{"default/holder-0", "default/holder-1", "default/holder-2"});
  REQUIRE(ex.quota.size() == 1);
  CHECK(ex.quota[0].nominal == 3 * 1'600'000);
  CHECK(ex.quota[0].reserved == 3 * 1'600'000);
  CHECK(ex.quota[0].need == 2 * 1'600'000);
  CHECK(story.path.time_at.at(model::Gate::kGate2) == SimTime::minutes(29));
  CHECK(story.path.reasons.at("quota") == story.path.reason_changes);
  CHECK_FALSE(story.admitted_unchanged);
  const sim::Change& change = smallest_change(story);
  CHECK(change.kind == "release");
  REQUIRE(change.actions.size() == 2);  // two of the three one-card holders
  CHECK(change.actions[0].workload == "default/holder-0");
  CHECK(change.actions[1].workload == "default/holder-1");
  CHECK(admitted_after_applying(s, change, SimTime::minutes(30), SimTime::hours(1), ex.workload, story.generator));
  // The same change with one holder released does not: the check is a simulation, not the sum.
  sim::Change one = change;
  one.actions.resize(1);
  CHECK_FALSE(admitted_after_applying(s, one, SimTime::minutes(30), SimTime::hours(1), ex.workload, story.generator));
}

TEST_CASE("a topology exclusion with quota to spare names the Pods on the Nodes, and a release or one more node admits it",
          "[explain]") {
  const auto s = load_file("scenarios/regression/pod-outside-kueue-holds-tas-room.yaml");
  sim::ExplainResult keep;
  const auto& story = explain_one(s, "default/second-0", SimTime::minutes(5), SimTime::minutes(5), keep);
  const auto& ex = story.explanation;
  CHECK(ex.place.gate == model::Gate::kGate2);
  CHECK_THAT(ex.place.reason, Catch::Contains("doesn't allow to fit any of 1 pod(s)"));
  CHECK(story.path.reasons.at("topology") >= 1);
  REQUIRE(ex.quota.size() == 1);
  CHECK_FALSE(ex.quota[0].short_of());
  CHECK(holder_keys(ex) == std::vector<std::string>{"default/first-0"});
  REQUIRE(ex.nodes.size() == 2);
  CHECK(ex.nodes[0].node == "t4-a");
  CHECK(ex.nodes[0].workloads == std::vector<std::string>{"Pod inference/ollama"});
  CHECK(ex.nodes[1].workloads == std::vector<std::string>{"default/first-0"});
  const sim::Change& change = smallest_change(story);
  CHECK(change.kind == "release");  // the Pod outside Kueue is no Workload to release
  REQUIRE(change.actions.size() == 1);
  CHECK(change.actions[0].workload == "default/first-0");
  CHECK(admitted_after_applying(s, change, SimTime::minutes(5), SimTime::minutes(5), ex.workload, story.generator));
  const auto node = std::find_if(story.tried.begin(), story.tried.end(), [](const auto& v) { return v.change.kind == "add-node"; });
  REQUIRE(node != story.tried.end());
  CHECK(node->admitted_at);
  CHECK(node->change.actions[0].new_node->metadata.name == "t4-a-extra-1");
  CHECK(admitted_after_applying(s, node->change, SimTime::minutes(5), SimTime::minutes(5), ex.workload, story.generator));
}

TEST_CASE("a Gate 3 refusal names the node, the cards' occupants, and the release that frees a card there",
          "[explain]") {
  const auto s = load_file("scenarios/regression/livelock-without-fit-pin.yaml");
  sim::ExplainResult keep;
  const auto& story = explain_one(s, "default/probe-0", SimTime::seconds(65), SimTime::minutes(20), keep);
  const auto& ex = story.explanation;
  CHECK(ex.place.gate == model::Gate::kGate3);
  CHECK(story.path.retries == 1);
  CHECK(story.path.retries_by_node.at("node-a") == 1);
  CHECK_FALSE(story.loop);  // one Retry is no loop
  CHECK_THAT(story.path.visits.back().last_reason, Catch::Contains("on node node-a"));
  REQUIRE(ex.nodes.size() == 2);
  const model::NodeStanding& a = ex.nodes[0].node == "node-a" ? ex.nodes[0] : ex.nodes[1];
  CHECK(a.workloads == std::vector<std::string>{"default/seed-0", "default/seed-1", "default/seed-2", "default/seed-3"});
  for (const auto& card : a.cards) CHECK(card.charges.size() == 1);
  // Card by card, as Gate 3 judges: node-a's cards do not take the 50 % slice, node-b's do.
  const model::NodeStanding& b = ex.nodes[0].node == "node-a" ? ex.nodes[1] : ex.nodes[0];
  CHECK_FALSE(a.cards_take_it);
  CHECK_THAT(a.cards_verdict, Catch::Contains("places 0 of 1 slice(s) of 800000 units on node node-a"));
  CHECK(b.cards_take_it);
  const sim::Change& change = smallest_change(story);
  CHECK(change.kind == "release");
  REQUIRE(change.actions.size() == 1);
  CHECK(change.actions[0].workload == "default/seed-0");
  CHECK(admitted_after_applying(s, change, SimTime::seconds(65), SimTime::minutes(20), ex.workload, story.generator));
}

TEST_CASE("a Hygon card refusing a fifth slice shows its four slots taken and who takes them", "[explain]") {
  const auto s = load_file("scenarios/regression/hygon-card-refuses-fifth-slice.yaml");
  sim::ExplainResult keep;
  const auto& story = explain_one(s, "default/fifth-0", SimTime::seconds(90), SimTime::minutes(10), keep);
  const auto& ex = story.explanation;
  CHECK(ex.place.gate == model::Gate::kGate2);
  CHECK_THAT(ex.place.reason, Catch::Contains("excluded: affinity"));
  REQUIRE(ex.nodes.size() == 1);
  REQUIRE(ex.nodes[0].cards.size() == 1);
  const model::CardStanding& card = ex.nodes[0].cards[0];
  CHECK(card.slots == 4);
  CHECK(card.free_slots == 0);
  REQUIRE(card.charges.size() == 4);
  for (int i = 0; i < 4; ++i) CHECK(card.charges[static_cast<size_t>(i)].workload == "default/four-" + std::to_string(i));
  CHECK(card.remaining == 1'600'000 - 4 * 160'000);  // memory left, no slot
  CHECK_FALSE(ex.nodes[0].cards_take_it);
  CHECK_THAT(ex.nodes[0].cards_verdict, Catch::Contains("no accelerator has that much free with a free slice slot"));
  const sim::Change& change = smallest_change(story);
  CHECK(change.kind == "release");
  REQUIRE(change.actions.size() == 1);
  CHECK(admitted_after_applying(s, change, SimTime::seconds(90), SimTime::minutes(10), ex.workload, story.generator));
}

TEST_CASE("a retry livelock names its loop and node, and the fit pin from the Workload's creation ends it",
          "[explain]") {
  const auto s = load_file("scenarios/regression/livelock-without-fit-pin.yaml");
  sim::ExplainResult keep;
  const auto& story = explain_one(s, "default/probe-0", SimTime::minutes(4), SimTime::minutes(10), keep);
  REQUIRE(story.loop);
  CHECK(story.loop->retries == 7);
  CHECK(story.loop->node == "node-a");
  CHECK(story.loop->on_node == 7);
  CHECK(story.loop->fit_pin_off);
  CHECK(story.loop->cure_checked);
  REQUIRE(story.loop->cure_admitted_at);
  CHECK(*story.loop->cure_admitted_at < SimTime::minutes(2));
  // The setting turned on now does not reach this Workload (the pin is set at creation)…
  const auto setting = std::find_if(story.tried.begin(), story.tried.end(), [](const auto& v) { return v.change.kind == "setting"; });
  REQUIRE(setting != story.tried.end());
  CHECK_FALSE(setting->admitted_at);
  // …and applied before it was created, by hand, it is admitted.
  sim::Change pin = setting->change;
  CHECK(admitted_after_applying(s, pin, story.loop->cure_from, SimTime::minutes(10), story.explanation.workload,
                                story.generator));
  CHECK_THAT(sim::explain_text(keep), Catch::Contains("Retry loop: 7 gpustack-node-devices Retry verdicts, 7 of them on node node-a"));
}

TEST_CASE("a Workload whose LocalQueue does not exist is held before Gate 2, and another Namespace admits it",
          "[explain]") {
  const auto s = load_text(R"(apiVersion: chaintwin/v1
kind: Scenario
metadata: {name: lq-missing}
seed: 1
horizon: 1h
cluster:
  namespaces: [team-a]
  nodes:)" + kT4Node + R"(
workloads:
  - name: lost
    namespace: kube-system
    arrival: {at: [1m]}
    duration: {fixed: 1h}
    accelerator: nvidia-tesla-t4
    podSets: [{request: {exclusive: 1}}]
)");
  sim::ExplainResult keep;
  const auto& story = explain_one(s, "kube-system/lost-0", SimTime::minutes(10), SimTime::hours(1), keep);
  const auto& ex = story.explanation;
  CHECK(ex.place.gate == model::Gate::kQueue);
  CHECK_THAT(ex.place.reason, Catch::StartsWith("LocalQueue gpustack-fnv64-") && Catch::EndsWith(" doesn't exist"));
  CHECK(ex.cluster_queue.empty());
  CHECK(ex.holders.empty());
  CHECK(story.path.time_at.at(model::Gate::kQueue) == SimTime::minutes(9));
  const sim::Change& change = smallest_change(story);
  CHECK(change.move_to_namespace == "team-a");
  CHECK(admitted_after_applying(s, change, SimTime::minutes(10), SimTime::hours(1), ex.workload, story.generator));
}

TEST_CASE("explain refuses a Workload that did not arrive and an instant past the horizon", "[explain]") {
  const auto s = load_file("scenarios/regression/livelock-without-fit-pin.yaml");
  sim::ExplainOptions o;
  o.workloads = {"default/nobody-0"};
  auto r = sim::explain_scenario(s, o);
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.error(), Catch::StartsWith("no Workload 'default/nobody-0' arrived by then (5 did: default/seed-0"));
  o.workloads = {"probe-0"};
  o.at = SimTime::hours(1);
  r = sim::explain_scenario(s, o);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error() == "--at 1h is past the scenario's horizon 5m");
}

TEST_CASE("explain --all-pending lists every waiting Workload and, over the limit, says it did not search", "[explain]") {
  const auto s = load_file("scenarios/regression/livelock-without-fit-pin.yaml");
  sim::ExplainOptions o;
  o.all_pending = true;
  o.at = SimTime::minutes(2);
  o.most_searched = 0;
  auto r = sim::explain_scenario(s, o);
  REQUIRE(r.ok());
  REQUIRE(r->stories.size() == 1);
  CHECK(r->stories[0].explanation.workload == "default/probe-0");
  CHECK_FALSE(r->stories[0].searched);
  CHECK_THAT(r->note, Catch::StartsWith("1 Workloads wait; what would admit them is checked for at most 0"));
  const auto json = sim::explain_json(*r);
  CHECK(json["workloads"][0]["heldAt"]["gate"] == "gate3");
}

TEST_CASE("a CPU job kept off its first flavor by TAS carries the note on Kueue's flavor fallback", "[explain]") {
  auto s = sim::load_scenario_text(std::string(sim::data::kDefaultScenarioYaml), "default");
  REQUIRE(s.ok());
  sim::ExplainOptions o;
  o.all_pending = true;
  o.at = SimTime::hours(6);
  o.search = false;
  auto r = sim::explain_scenario(*s, o);
  REQUIRE(r.ok());
  size_t cpu = 0;
  for (const auto& story : r->stories) {
    const auto& ex = story.explanation;
    INFO(ex.workload << ": " << ex.place.reason);
    const bool topology = ex.place.reason.find("doesn't allow to fit") != std::string::npos;
    if (ex.workload.find("/cpu-batch-") != std::string::npos && topology) {
      ++cpu;
      REQUIRE(ex.notes.size() == 1);
      CHECK_THAT(ex.notes[0], Catch::Contains("kubernetes-sigs/kueue#13658"));
    } else if (!topology) {
      CHECK(ex.notes.empty());  // quota, not topology: nothing to say about the fallback
    }
  }
  CHECK(cpu > 0);
}
