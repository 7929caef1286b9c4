// PoolSampler (sim/results/pool_sampler.h): skipping the ClusterQueues whose inputs did not move
// must write exactly the series that sampling every queue every time writes.
#include <catch2/catch.hpp>

#include <deque>
#include <functional>
#include <map>

#include "sim/results/pool_sampler.h"

using namespace chaintwin;

namespace {

const std::string kCredits = "credits.gpustack.ai/nvidia";

model::Quantity q(int64_t v) { return model::Quantity::from_int(v); }

model::ClusterQueue queue(const std::string& name, int64_t credits, int64_t cpu) {
  model::ClusterQueue cq;
  cq.metadata.name = name;
  model::ResourceGroup g;
  g.covered_resources = {"cpu", kCredits};
  g.flavors.push_back({"f1", {{"cpu", q(cpu), {}, {}}, {kCredits, q(credits), {}, {}}}});
  cq.spec.resource_groups = {g};
  return cq;
}

void report(model::ClusterQueue& cq, int32_t pending, int64_t reserved_credits, int64_t admitted_credits) {
  cq.status.pending_workloads = pending;
  cq.status.reserving_workloads = reserved_credits > 0 ? 1 : 0;
  cq.status.admitted_workloads = admitted_credits > 0 ? 1 : 0;
  cq.status.flavors_reservation = {{"f1", {{"cpu", q(0), q(0)}, {kCredits, q(reserved_credits), q(0)}}}};
  cq.status.flavors_usage = {{"f1", {{"cpu", q(0), q(0)}, {kCredits, q(admitted_credits), q(0)}}}};
}

// The series as sampling every queue at every call gives it (what the runner did before).
struct EveryQueue {
  std::map<std::string, sim::PoolSample> last;
  void sample(const model::ClusterState& cluster, sim::SimTime now, bool at_end, std::deque<sim::PoolSample>& out) {
    for (const auto& [name, cq] : cluster.cluster_queues) {
      std::map<std::string, int64_t> nominal, reserved, admitted;
      for (const auto& rg : cq.spec.resource_groups)
        for (const auto& f : rg.flavors)
          for (const auto& r : f.resources)
            nominal[r.name] += r.name == "cpu" ? r.nominal_quota.milli_value_ceil() : r.nominal_quota.value_ceil();
      for (const auto& f : cq.status.flavors_reservation)
        for (const auto& r : f.resources) reserved[r.name] += r.name == "cpu" ? r.total.milli_value_ceil() : r.total.value_ceil();
      for (const auto& f : cq.status.flavors_usage)
        for (const auto& r : f.resources) admitted[r.name] += r.name == "cpu" ? r.total.milli_value_ceil() : r.total.value_ceil();
      for (const auto& [resource, value] : nominal) {
        sim::PoolSample s;
        s.at = now;
        s.cluster_queue = name;
        s.resource = resource;
        s.nominal = value;
        s.reserved = reserved[resource];
        s.admitted = admitted[resource];
        s.pending_workloads = cq.status.pending_workloads;
        s.reserving_workloads = cq.status.reserving_workloads;
        s.admitted_workloads = cq.status.admitted_workloads;
        s.stop_policy = cq.stop_policy();
        s.draining = cq.stop_policy() == model::StopPolicy::kHoldAndDrain;
        const auto l = last.find(name + "|" + resource);
        if (!at_end && l != last.end() && l->second.nominal == s.nominal && l->second.reserved == s.reserved &&
            l->second.admitted == s.admitted && l->second.pending_workloads == s.pending_workloads &&
            l->second.reserving_workloads == s.reserving_workloads &&
            l->second.admitted_workloads == s.admitted_workloads && l->second.stop_policy == s.stop_policy)
          continue;
        last[name + "|" + resource] = s;
        out.push_back(s);
      }
    }
  }
};

bool same(const std::deque<sim::PoolSample>& a, const std::deque<sim::PoolSample>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto &x = a[i], &y = b[i];
    if (!(x.at == y.at && x.cluster_queue == y.cluster_queue && x.resource == y.resource && x.nominal == y.nominal &&
          x.reserved == y.reserved && x.admitted == y.admitted && x.pending_workloads == y.pending_workloads &&
          x.reserving_workloads == y.reserving_workloads && x.admitted_workloads == y.admitted_workloads &&
          x.stop_policy == y.stop_policy && x.draining == y.draining))
      return false;
  }
  return true;
}

}  // namespace

TEST_CASE("the pool series skips unchanged queues yet is the series of sampling every queue", "[sim][results]") {
  // Each step changes something (or nothing) and then samples; the end samples everything.
  using Step = std::function<void(model::ClusterState&)>;
  const std::vector<std::pair<const char*, Step>> steps = {
      {"nothing moved", [](model::ClusterState&) {}},
      {"a report on a", [](model::ClusterState& c) { report(c.cluster_queues.at("a"), 3, 1600000, 0); }},
      {"the same report again", [](model::ClusterState& c) { report(c.cluster_queues.at("a"), 3, 1600000, 0); }},
      {"only the pending count of b", [](model::ClusterState& c) { c.cluster_queues.at("b").status.pending_workloads = 7; }},
      {"a's quota raised", [](model::ClusterState& c) { c.cluster_queues.at("a") = [&] {
         auto cq = queue("a", 3200000, 8000);
         cq.status = c.cluster_queues.at("a").status;
         return cq; }(); }},
      {"b held and drained", [](model::ClusterState& c) { c.cluster_queues.at("b").spec.stop_policy = model::StopPolicy::kHoldAndDrain; }},
      {"a queue joins", [](model::ClusterState& c) { c.cluster_queues["c"] = queue("c", 800000, 2000); }},
      {"a queue leaves", [](model::ClusterState& c) { c.cluster_queues.erase("a"); }},
      {"it comes back as it was", [](model::ClusterState& c) { c.cluster_queues["a"] = queue("a", 1600000, 4000); }},
      {"b released", [](model::ClusterState& c) { c.cluster_queues.at("b").spec.stop_policy.reset(); }},
  };
  model::ClusterState cluster;
  cluster.cluster_queues["a"] = queue("a", 1600000, 4000);
  cluster.cluster_queues["b"] = queue("b", 1600000, 4000);
  sim::PoolSampler sampler;
  EveryQueue reference;
  std::deque<sim::PoolSample> got, want;
  int64_t minute = 0;
  sampler.sample(cluster, sim::SimTime::minutes(minute), false, got);
  reference.sample(cluster, sim::SimTime::minutes(minute), false, want);
  for (const auto& [what, step] : steps) {
    INFO(what);
    step(cluster);
    ++minute;
    sampler.sample(cluster, sim::SimTime::minutes(minute), false, got);
    reference.sample(cluster, sim::SimTime::minutes(minute), false, want);
    CHECK(same(got, want));
  }
  sampler.sample(cluster, sim::SimTime::minutes(minute + 1), true, got);
  reference.sample(cluster, sim::SimTime::minutes(minute + 1), true, want);
  CHECK(same(got, want));
  CHECK(want.size() > 10);  // the steps above moved something to write
}
