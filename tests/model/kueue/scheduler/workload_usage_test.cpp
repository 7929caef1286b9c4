// WorkloadUsage (model/kueue/scheduler/usage_snapshot.h): the amounts a Workload's reservation adds,
// kept so a cache can take it out again without the Workload. Adding or removing them must change
// a snapshot exactly as add_workload_usage on the Workload does.
#include <catch2/catch.hpp>

#include "model/kueue/scheduler/usage_snapshot.h"

using namespace chaintwin::model;

namespace {

PodSet pod_set(const std::string& name, const std::string& cpu, int64_t gpus) {
  PodSet ps;
  ps.name = name;
  Container c;
  c.name = "main";
  c.requests["cpu"] = Quantity::parse(cpu).value();
  if (gpus > 0) c.requests["nvidia.com/gpu"] = Quantity::from_int(gpus);
  ps.template_.containers.push_back(c);
  return ps;
}

PodSetAssignment assignment(const std::string& name, int32_t count, const std::string& cpu, int64_t gpus,
                            std::optional<TopologyAssignment> topology) {
  PodSetAssignment psa;
  psa.name = name;
  psa.count = count;
  psa.flavors["cpu"] = "default";
  psa.resource_usage["cpu"] = Quantity::parse(cpu).value();
  if (gpus > 0) {
    psa.flavors["nvidia.com/gpu"] = "a100";
    psa.resource_usage["nvidia.com/gpu"] = Quantity::from_int(gpus);
  }
  psa.resource_usage["memory"] = Quantity::from_int(1);  // no flavor: not counted as quota
  psa.topology_assignment = std::move(topology);
  return psa;
}

TopologyAssignment on_hosts(std::vector<std::pair<std::string, int32_t>> hosts) {
  TopologyAssignment ta;
  ta.levels = {"topology.kubernetes.io/zone", std::string(kHostnameLabel)};
  for (auto& [host, count] : hosts) ta.domains.push_back({{"zone-a", host}, count});
  return ta;
}

Workload workload(std::vector<PodSet> sets, std::optional<Admission> admission) {
  Workload wl;
  wl.metadata.name = "w";
  wl.metadata.namespace_ = "default";
  wl.pod_sets = std::move(sets);
  wl.status.admission = std::move(admission);
  return wl;
}

}  // namespace

TEST_CASE("a Workload's kept usage changes a snapshot exactly as adding the Workload does", "[kueue][usage]") {
  TopologyAssignment above_hosts;
  above_hosts.levels = {"topology.kubernetes.io/zone"};
  above_hosts.domains.push_back({{"zone-a"}, 2});
  struct Row {
    const char* what;
    Workload wl;
  };
  const Row rows[] = {
      {"no admission", workload({pod_set("main", "1", 1)}, std::nullopt)},
      {"quota only", workload({pod_set("main", "500m", 2)}, Admission{"cq", {assignment("main", 3, "1500m", 6, {})}})},
      {"a topology over two hosts",
       workload({pod_set("main", "250m", 1)},
                Admission{"cq", {assignment("main", 3, "750m", 3, on_hosts({{"n1", 2}, {"n2", 1}}))}})},
      {"two PodSets on one host",
       workload({pod_set("leader", "1", 0), pod_set("worker", "2", 1)},
                Admission{"cq", {assignment("leader", 1, "1", 0, on_hosts({{"n1", 1}})),
                                 assignment("worker", 2, "4", 2, on_hosts({{"n1", 2}}))}})},
      {"a domain above the hostname level names no Node",
       workload({pod_set("main", "1", 1)}, Admission{"cq", {assignment("main", 2, "2", 2, above_hosts)}})},
      {"an assignment naming no PodSet of the Workload",
       workload({pod_set("main", "1", 1)}, Admission{"cq", {assignment("other", 1, "1", 1, on_hosts({{"n1", 1}}))}})},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    const WorkloadUsage kept = workload_usage(r.wl);
    CHECK(kept.reserved == r.wl.status.admission.has_value());
    for (const int sign : {+1, -1}) {
      // Start from a snapshot that already holds something, so that entries are shared.
      UsageSnapshot base;
      base.quota["cq"][{"default", "cpu"}] = 7000;
      base.nodes["n1"]["pods"] = 4;
      UsageSnapshot by_workload = base, by_kept = base;
      add_workload_usage(by_workload, r.wl, sign);
      add_workload_usage(by_kept, kept, sign);
      CHECK(by_kept == by_workload);
    }
    UsageSnapshot round_trip;
    add_workload_usage(round_trip, kept, +1);
    add_workload_usage(round_trip, kept, -1);
    CHECK(same_usage(round_trip, UsageSnapshot{}));
  }
}
