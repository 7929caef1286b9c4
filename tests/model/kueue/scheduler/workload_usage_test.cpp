// WorkloadUsage (model/kueue/scheduler/usage_snapshot.h): the amounts a Workload's reservation adds
// to Kueue's snapshot (quota per flavor and resource, TAS usage per Node), kept so a cache can take
// the Workload out again without reading it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

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

TEST_CASE("a Workload's reservation adds its quota per flavor and its TAS usage per Node", "[kueue][usage]") {
  TopologyAssignment above_hosts;
  above_hosts.levels = {"topology.kubernetes.io/zone"};
  above_hosts.domains.push_back({{"zone-a"}, 2});
  using Quota = std::map<std::string, FlavorResourceAmounts>;
  using Nodes = NodeUsage;
  struct Row {
    const char* what;
    Workload wl;
    Quota quota;  // what adding it to an empty snapshot gives
    Nodes nodes;
  };
  const Row rows[] = {
      {"no admission adds nothing", workload({pod_set("main", "1", 1)}, std::nullopt), {}, {}},
      {"quota only: each flavored resource, in milli-CPU and whole cards",
       workload({pod_set("main", "500m", 2)}, Admission{"cq", {assignment("main", 3, "1500m", 6, {})}}),
       {{"cq", {{{"default", "cpu"}, 1500}, {{"a100", "nvidia.com/gpu"}, 6}}}},
       {}},
      {"a topology over two hosts: per-Pod requests times each host's Pods",
       workload({pod_set("main", "250m", 1)},
                Admission{"cq", {assignment("main", 3, "750m", 3, on_hosts({{"n1", 2}, {"n2", 1}}))}}),
       {{"cq", {{{"default", "cpu"}, 750}, {{"a100", "nvidia.com/gpu"}, 3}}}},
       {{"n1", {{"cpu", 500}, {"nvidia.com/gpu", 2}, {"pods", 2}}}, {"n2", {{"cpu", 250}, {"nvidia.com/gpu", 1}, {"pods", 1}}}}},
      {"two PodSets on one host add up",
       workload({pod_set("leader", "1", 0), pod_set("worker", "2", 1)},
                Admission{"cq", {assignment("leader", 1, "1", 0, on_hosts({{"n1", 1}})),
                                 assignment("worker", 2, "4", 2, on_hosts({{"n1", 2}}))}}),
       {{"cq", {{{"default", "cpu"}, 5000}, {{"a100", "nvidia.com/gpu"}, 2}}}},
       {{"n1", {{"cpu", 5000}, {"nvidia.com/gpu", 2}, {"pods", 3}}}}},
      {"a domain above the hostname level names no Node",
       workload({pod_set("main", "1", 1)}, Admission{"cq", {assignment("main", 2, "2", 2, above_hosts)}}),
       {{"cq", {{{"default", "cpu"}, 2000}, {{"a100", "nvidia.com/gpu"}, 2}}}},
       {}},
      {"an assignment naming no PodSet of the Workload counts as quota only",
       workload({pod_set("main", "1", 1)}, Admission{"cq", {assignment("other", 1, "1", 1, on_hosts({{"n1", 1}}))}}),
       {{"cq", {{{"default", "cpu"}, 1000}, {{"a100", "nvidia.com/gpu"}, 1}}}},
       {}},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    const WorkloadUsage kept = workload_usage(r.wl);
    CHECK(kept.reserved == r.wl.status.admission.has_value());
    UsageSnapshot added;
    add_workload_usage(added, kept, +1);
    CHECK(added.quota == r.quota);
    CHECK(added.nodes == r.nodes);
    // Taken out of a snapshot that holds something else, it leaves that as it was.
    UsageSnapshot base;
    base.quota["cq"][{"default", "cpu"}] = 7000;
    base.nodes["n1"]["pods"] = 4;
    UsageSnapshot round_trip = base;
    add_workload_usage(round_trip, r.wl, +1);
    add_workload_usage(round_trip, kept, -1);
    CHECK(same_usage(round_trip, base));
    // Charged, it adds what add_workload_usage adds; its cells, walked back after other entries
    // were made beside them, take out exactly that.
    UsageSnapshot charged = base;
    const CellCharges cells = charge_workload_usage(charged, kept);
    UsageSnapshot expected = base;
    add_workload_usage(expected, kept, +1);
    CHECK(charged == expected);
    for (const char* node : {"a-node", "n0", "n15", "zz"}) charged.nodes[node]["pods"] = 1;
    for (const char* cq : {"a-cq", "cq0", "zz"}) charged.quota[cq][{"default", "cpu"}] = 1;
    cells.apply(-1);
    for (const char* node : {"a-node", "n0", "n15", "zz"}) charged.nodes[node]["pods"] = 0;
    for (const char* cq : {"a-cq", "cq0", "zz"}) charged.quota[cq][{"default", "cpu"}] = 0;
    CHECK(same_usage(charged, base));
  }
}

TEST_CASE("(flavor, resource) amounts keep the pair's order and are found by views of the two names", "[usage]") {
  // Pairs whose order depends on the second name, on a prefix, and on the first name alone.
  const std::vector<std::pair<std::string, std::string>> keys{
      {"f1", "cpu"}, {"f1", "cpu2"}, {"f1", "b"}, {"f10", "a"}, {"f", "z"}, {"", "x"}, {"f1", ""}, {"g", "a"}};
  FlavorResourceAmounts amounts;
  std::map<std::pair<std::string, std::string>, int64_t> reference;
  int64_t v = 1;
  for (const auto& k : keys) {
    add_amount(amounts, FlavorResourceView{k.first, k.second}, v);
    reference[k] += v;
    ++v;
  }
  add_amount(amounts, FlavorResourceView{"f1", "cpu"}, 10);  // an existing entry grows
  reference[{"f1", "cpu"}] += 10;
  CHECK(std::equal(amounts.begin(), amounts.end(), reference.begin(), reference.end()));
  for (const auto& [k, want] : reference) CHECK(amount_of(amounts, FlavorResourceView{k.first, k.second}) == want);
  CHECK(amount_of(amounts, FlavorResourceView{"f1", "mem"}) == 0);
  CHECK(amount_of(amounts, FlavorResourceView{"f2", "cpu"}) == 0);
  CHECK(amounts.size() == reference.size());  // a lookup adds nothing
}
