// What each operator controller declares it reads (Controller::reads, model/stage4/state_parts.h)
// and the fixpoint that trusts it (model::FixpointMemo). A controller is skipped only when none of
// its declared parts moved, so a part it reads but does not declare would make a skip wrong: for
// every cluster under scenarios/, at the start and after each pass of its fixpoint, each
// controller must plan the same writes and requeues with every undeclared part taken away (a kind
// it does not read: its objects removed; a kind whose status it does not read: the statuses
// reset). And a fixpoint that skips must end where one that runs everything ends.
#include <catch2/catch.hpp>

#include <tuple>
#include <utility>

#include "model/stage4/operator_controllers.h"
#include "model/stage4/reconcile_loop.h"
#include "model/stage4/state_parts.h"
#include "tests/sim/scenario_clusters.h"

namespace {

using namespace chaintwin;
namespace m = chaintwin::model;

const std::string kNow = "2026-01-01T00:00:00Z";

template <class T>
auto& table_of(m::ClusterState& s) {
  if constexpr (std::is_same_v<T, m::Node>) return s.nodes;
  else if constexpr (std::is_same_v<T, m::Devices>) return s.devices;
  else if constexpr (std::is_same_v<T, m::Namespace>) return s.namespaces;
  else if constexpr (std::is_same_v<T, m::Topology>) return s.topologies;
  else if constexpr (std::is_same_v<T, m::ResourceFlavor>) return s.resource_flavors;
  else if constexpr (std::is_same_v<T, m::InstanceType>) return s.instance_types;
  else if constexpr (std::is_same_v<T, m::ClusterQueue>) return s.cluster_queues;
  else if constexpr (std::is_same_v<T, m::LocalQueue>) return s.local_queues;
  else if constexpr (std::is_same_v<T, m::AdmissionCheck>) return s.admission_checks;
  else if constexpr (std::is_same_v<T, m::Instance>) return s.instances;
  else if constexpr (std::is_same_v<T, m::TopologySource>) return s.topology_sources;
  else return s.node_features;
}

// Resets the status part of `o` (what an UpdateStatus writes).
template <class T>
void reset_status(T& o) {
  if constexpr (std::is_same_v<T, m::AdmissionCheck>) o.conditions.clear();
  else if constexpr (std::is_same_v<T, m::TopologySource>) {
    o.conditions.clear();
    o.status = {};
  } else if constexpr (requires { o.status; }) o.status = {};
}

// Every state the reads must hold in, each with what it takes away.
struct Variant {
  std::string what;
  m::ClusterState state;
};

template <std::size_t I = 0>
void take_away_kinds(const m::ClusterState& s, m::StateParts reads, std::vector<Variant>& out) {
  if constexpr (I < std::variant_size_v<m::Object>) {
    using T = std::variant_alternative_t<I, m::Object>;
    const bool object = reads.overlaps(m::StateParts::without_status<T>());
    const bool whole = (reads.bits() & m::StateParts::whole<T>().bits()) == m::StateParts::whole<T>().bits();
    m::ClusterState changed = s;
    auto& table = table_of<T>(changed);
    if (!table.empty() && !object && !reads.overlaps(m::StateParts::whole<T>())) {
      table.clear();
      out.push_back({"every object of kind #" + std::to_string(I) + " removed", std::move(changed)});
    } else if (!table.empty() && object && !whole) {
      for (auto& [key, o] : table) reset_status(o);
      out.push_back({"the statuses of kind #" + std::to_string(I) + " reset", std::move(changed)});
    }
    take_away_kinds<I + 1>(s, reads, out);
  }
}

std::vector<Variant> without_undeclared(const m::ClusterState& s, m::StateParts reads) {
  std::vector<Variant> out;
  take_away_kinds(s, reads, out);
  if (!reads.overlaps(m::StateParts::instance_pods()) && !s.instance_pods.empty()) {
    m::ClusterState changed = s;
    changed.instance_pods.clear();
    out.push_back({"the Instances' Pods removed", std::move(changed)});
  }
  return out;
}

// What a plan decides: its writes (verb, kind, key, why) and its requeues.
std::vector<std::string> decided(const m::Plan& p) {
  std::vector<std::string> out;
  for (const auto& w : p.writes)
    out.push_back(std::string(m::to_string(w.verb)) + " " + std::string(m::kind_of(w.object)) + " " +
                  m::metadata_of(w.object).namespace_ + "/" + m::metadata_of(w.object).name + ": " + w.reason);
  for (const auto& r : p.requeues)
    out.push_back("requeue " + r.controller + " " + r.key + " after " + std::to_string(r.after_seconds) + ": " + r.reason);
  return out;
}

}  // namespace

TEST_CASE("each controller plans the same with every part of the state it does not declare taken away",
          "[stage4][fixpoint]") {
  const auto controllers = m::operator_controllers();
  int clusters = 0, checked = 0;
  for (const auto& file : test_support::scenario_files()) {
    ++clusters;
    m::ClusterState state = test_support::load_cluster(file);
    for (int pass = 0; pass < 8; ++pass) {
      for (const auto& c : controllers) {
        const auto want = decided(c.reconcile(state));
        for (const auto& v : without_undeclared(state, c.reads)) {
          INFO(file << ", before pass " << pass + 1 << ", " << c.name << " with " << v.what);
          CHECK(decided(c.reconcile(v.state)) == want);
          ++checked;
        }
      }
      std::vector<m::Write> applied;
      REQUIRE(m::run_pass_in_place(state, controllers, kNow, &applied).ok());
      if (applied.empty()) break;
    }
  }
  CHECK(clusters >= 20);
  CHECK(checked > 1000);
}

TEST_CASE("a fixpoint that skips the controllers whose reads did not move ends where one that runs them all ends",
          "[stage4][fixpoint]") {
  const auto controllers = m::operator_controllers();
  std::size_t skipped = 0;
  for (const auto& file : test_support::scenario_files()) {
    INFO(file);
    m::ClusterState state = test_support::load_cluster(file);
    const auto reference = m::converge(state, controllers, kNow);
    REQUIRE(reference.ok());
    m::FixpointMemo memo(controllers.size(), /*cross_check=*/true);
    std::vector<m::Write> writes;
    std::vector<m::Requeue> requeues;
    for (int pass = 0; pass < 50; ++pass) {
      std::vector<m::Write> applied;
      requeues.clear();
      const auto s = m::run_pass_in_place(state, controllers, kNow, &applied, &requeues, &memo);
      INFO((s.ok() ? std::string() : s.error()));
      REQUIRE(s.ok());
      if (applied.empty()) break;
      for (auto& w : applied) writes.push_back(std::move(w));
    }
    CHECK(state == reference->state);
    CHECK(writes.size() == reference->writes.size());
    CHECK(requeues == reference->requeues);
    skipped += memo.skipped();
  }
  CHECK(skipped > 0);  // the skip is exercised, not only allowed
}

TEST_CASE("an UpdateStatus moves the status part of its kind only; other verbs move the whole kind",
          "[stage4][fixpoint]") {
  using P = m::StateParts;
  const std::vector<std::tuple<m::WriteVerb, m::Object, P>> table{
      {m::WriteVerb::kUpdateStatus, m::InstanceType{}, P::whole<m::InstanceType>()},
      {m::WriteVerb::kUpdate, m::InstanceType{}, P::whole<m::InstanceType>()},
      {m::WriteVerb::kCreate, m::Node{}, P::whole<m::Node>()},
      {m::WriteVerb::kDelete, m::LocalQueue{}, P::whole<m::LocalQueue>()},
      {m::WriteVerb::kUpdateStatus, m::ClusterQueue{}, P::whole<m::ClusterQueue>()},
  };
  for (const auto& [verb, object, kind] : table) {
    const P written = P::written_by(m::Write{verb, object, "test", "why"});
    INFO(m::to_string(verb) << " " << m::kind_of(object));
    CHECK((written.bits() & ~kind.bits()) == 0);  // its own kind only
    if (verb == m::WriteVerb::kUpdateStatus) {
      CHECK_FALSE(written.overlaps(P::without_status<m::InstanceType, m::ClusterQueue>()));
      CHECK_FALSE(written.empty());
    } else {
      CHECK(written == kind);
    }
  }
}

TEST_CASE("a controller that planned nothing is skipped until a part it reads is written", "[stage4][fixpoint]") {
  using P = m::StateParts;
  m::FixpointMemo memo(2, false);
  const P reads = P::whole<m::Node>() | P::without_status<m::InstanceType>();
  CHECK_FALSE(memo.unchanged_for(0, reads));  // never ran
  memo.ran(0, m::Plan{});
  CHECK(memo.unchanged_for(0, reads));
  memo.ran(1, m::Plan{});
  memo.wrote(m::Write{m::WriteVerb::kUpdateStatus, m::InstanceType{}, "InstanceType", "status"});
  CHECK(memo.unchanged_for(0, reads));  // a status it does not read
  memo.wrote(m::Write{m::WriteVerb::kUpdate, m::ClusterQueue{}, "NodeQueue", "spec"});
  CHECK(memo.unchanged_for(0, reads));  // a kind it does not read
  memo.wrote(m::Write{m::WriteVerb::kUpdate, m::InstanceType{}, "InstanceType", "spec"});
  CHECK_FALSE(memo.unchanged_for(0, reads));
  m::Plan writing;
  writing.writes.push_back(m::Write{m::WriteVerb::kUpdate, m::Node{}, "NodeProfile", "labels"});
  memo.ran(0, writing);
  CHECK_FALSE(memo.unchanged_for(0, reads));  // it planned a write: it runs again
}
